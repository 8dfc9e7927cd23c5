/**
 * What Earn uses of the local DeFi set, loaded on first use (`import()`: the contracts' artifacts
 * are large): the chains' deployed set and its operator (chains/defi/index.ts), and Earn's own
 * reads and transactions on the chain: the vaults and wrappers (vaults.ts), the operator's
 * wrapper transactions and the positions the queries report (wrappers.ts).
 */
export * from "../chains/defi/index.js";
export { localVault, apyOf, vaultView, wrapperView, wrapperDeployData, wrapperCalldata } from "./vaults.js";
export { deployWrapper, setDepositsDisabled, claimFees, vaultTvl, wrapperState, isDeployed, positionOf, rewardsOf } from "./wrappers.js";
export type { Position } from "./wrappers.js";
