/**
 * Local DeFi on the embedded EVM chains: a test dollar, wrapped ether, a yield vault per asset,
 * Earn's fee wrappers over them, and a constant-product market per token pair. The Solidity is in
 * this folder; scripts/gen-defi.ts compiles it into artifact.ts (artifact.test.ts recompiles and
 * compares). Nothing here runs on an external `--chain` node: there are no local vaults there.
 *
 * What to use:
 * - `Networks.defi(caip2, field)` (networks/registry.ts): the chain, with this set deployed on it
 *   (first use), or a 501 naming the reason on an external node. Call it before anything below.
 * - Addresses (the same on every local chain, fixed by the operator's nonces: deploy.ts):
 *   `TUSD`, `WETH`, `REWARD_TOKEN` (LocalAsset: address, symbol, name, decimals),
 *   `LOCAL_VAULTS` (vault, asset, ratePerSecond, rewardRate), `LOCAL_POOLS` (pool, token0,
 *   token1, feeBps), `SWAP_ROUTER` (LocalSwapRouter: swaps to and from ether).
 * - Swaps (pool.ts): `poolFor(tokenA, tokenB)` → the pool of a pair; `readReserves(chain, pool)`;
 *   `quoteExactIn(amountIn, reserveIn, reserveOut, feeBps)` (the pool's exact formula) and
 *   `quoteSwap(chain, pool, tokenIn, amountIn)`; `approveCalldata(spender, amount?)` and
 *   `swapCalldata(tokenIn, amountIn, minAmountOut, to)`: a wallet approves the pool, then swaps
 *   (both calls fit one gas-station batch, sendBatch in activities/handlers/gas-station.ts).
 *   Ether in or out goes through the router at `SWAP_ROUTER`: `routerCalldata.tokensForEth`
 *   (approve the router for the token first) and `routerCalldata.ethForTokens` (value = wei in).
 *   WETH: `wethCalldata.deposit()` (value = wei to wrap) / `wethCalldata.withdraw(wei)`.
 * - Vaults and Earn wrappers (vault.ts): `localVault(address)`, `apyOf(ratePerSecond)`,
 *   `vaultView` / `wrapperView` (reads), `wrapperDeployData`, `wrapperCalldata`.
 * - Earn (earn.ts): the operator's wrapper transactions (`deployWrapper`, `setDepositsDisabled`,
 *   `claimFees`) and the reads the Earn queries report (`vaultTvl`, `wrapperState`,
 *   `positionOf`, `rewardsOf`).
 * - The operator (operator.ts): `DEFI_OPERATOR_ADDRESS`, `sendAsOperator`,
 *   `serializedForOperator`: the service's own transactions (deployments, fee claims).
 * - Test funds: `faucetCalldata(to, amount)`: anyone may mint up to 1,000,000 TUSD a call; each
 *   fixture account starts with 100,000 TUSD (`FIXTURE_TUSD`).
 */
import { encodeFunctionData, type Hex } from "viem";
import { LOCAL_TOKEN_ABI, WRAPPED_ETHER_ABI } from "./artifact.js";

export { TUSD, WETH, REWARD_TOKEN, LOCAL_VAULTS, LOCAL_POOLS, SWAP_ROUTER, FIXTURE_TUSD, ratePerSecondOf, deployLocalDefi, type LocalAsset, type LocalVault, type LocalPool } from "./deploy.js";
export { poolFor, quoteExactIn, quoteSwap, readReserves, approveCalldata, swapCalldata, routerCalldata } from "./pool.js";
export { localVault, apyOf, vaultView, wrapperView, wrapperDeployData, wrapperCalldata } from "./vault.js";
export { deployWrapper, setDepositsDisabled, claimFees, vaultTvl, wrapperState, isDeployed, positionOf, rewardsOf, type Position } from "./earn.js";
export { DEFI_OPERATOR_ADDRESS, sendAsOperator, serializedForOperator } from "./operator.js";

export const wethCalldata = {
  deposit: (): Hex => encodeFunctionData({ abi: WRAPPED_ETHER_ABI, functionName: "deposit" }),
  withdraw: (wei: bigint): Hex => encodeFunctionData({ abi: WRAPPED_ETHER_ABI, functionName: "withdraw", args: [wei] }),
};

/** Calldata of `LocalToken.faucet(to, amount)` (TUSD, TRWD): at most 1,000,000 whole tokens a call. */
export function faucetCalldata(to: Hex, amount: bigint): Hex {
  return encodeFunctionData({ abi: LOCAL_TOKEN_ABI, functionName: "faucet", args: [to, amount] });
}
