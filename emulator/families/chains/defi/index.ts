/**
 * Local DeFi on the embedded EVM chains: a test dollar, wrapped ether, a yield vault per asset,
 * Earn's fee wrappers over them, and a constant-product market per token pair. The Solidity is in
 * this folder; scripts/gen-defi.ts compiles it into artifact.ts (artifact.test.ts recompiles and
 * compares). Nothing here runs on an external `--chain` node: there are no local vaults there.
 *
 * This is the chains family's second entry, loaded with `import()` on first use (the artifacts
 * are large): Earn (families/earn/defi.ts) and swaps (families/swaps/swap.ts) build on it.
 *
 * What it offers:
 * - `Networks.defi(caip2, field)` (chains/networks.ts): the chain, with this set deployed on it
 *   (first use), or a 501 naming the reason on an external node. Call it before anything below.
 * - Addresses (the same on every local chain, fixed by the operator's nonces: deploy.ts):
 *   `TUSD`, `WETH`, `REWARD_TOKEN` (LocalAsset: address, symbol, name, decimals),
 *   `LOCAL_VAULTS` (vault, asset, ratePerSecond, rewardRate), `LOCAL_POOLS` (pool, token0,
 *   token1, feeBps), `SWAP_ROUTER` (LocalSwapRouter: swaps to and from ether).
 * - The contracts' ABIs and bytecode (artifact.ts).
 * - The operator (operator.ts): `DEFI_OPERATOR_ADDRESS`, `sendAsOperator`, `sendAsServiceKey`,
 *   `serializedForOperator`: the service's own transactions (deployments, fee claims).
 * - Token calldata: `approveCalldata(spender, amount?)`; WETH: `wethCalldata.deposit()` (value =
 *   wei to wrap) / `wethCalldata.withdraw(wei)`; test funds: `faucetCalldata(to, amount)`: anyone
 *   may mint up to 1,000,000 TUSD a call; each fixture account starts with 100,000 TUSD
 *   (`FIXTURE_TUSD`).
 */
import { encodeFunctionData, maxUint256, type Hex } from "viem";
import { LOCAL_TOKEN_ABI, WRAPPED_ETHER_ABI } from "./artifact.js";

export { TUSD, WETH, REWARD_TOKEN, LOCAL_VAULTS, LOCAL_POOLS, SWAP_ROUTER, FIXTURE_TUSD, ratePerSecondOf, deployLocalDefi, type LocalAsset, type LocalVault, type LocalPool } from "./deploy.js";
export * from "./artifact.js";
export { DEFI_OPERATOR_ADDRESS, sendAsOperator, sendAsServiceKey, serializedForOperator, type ServiceKey } from "./operator.js";

/** Calldata of `token.approve(spender, amount)` (an unlimited allowance by default). */
export function approveCalldata(spender: Hex, amount: bigint = maxUint256): Hex {
  return encodeFunctionData({ abi: LOCAL_TOKEN_ABI, functionName: "approve", args: [spender, amount] });
}

export const wethCalldata = {
  deposit: (): Hex => encodeFunctionData({ abi: WRAPPED_ETHER_ABI, functionName: "deposit" }),
  withdraw: (wei: bigint): Hex => encodeFunctionData({ abi: WRAPPED_ETHER_ABI, functionName: "withdraw", args: [wei] }),
};

/** Calldata of `LocalToken.faucet(to, amount)` (TUSD, TRWD): at most 1,000,000 whole tokens a call. */
export function faucetCalldata(to: Hex, amount: bigint): Hex {
  return encodeFunctionData({ abi: LOCAL_TOKEN_ABI, functionName: "faucet", args: [to, amount] });
}
