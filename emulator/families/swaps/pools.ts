/**
 * The local constant-product pools from the outside: which pool trades a pair, what a swap pays
 * out (the pool's own formula, computed from its reserves), and the calldata of the approve and
 * swap a wallet sends, directly to a pool or, with ether on either side, through the router.
 */
import { decodeFunctionResult, encodeFunctionData, type Hex } from "viem";
import type { EvmChain } from "../chains/index.js";
import { CONSTANT_PRODUCT_POOL_ABI, LOCAL_SWAP_ROUTER_ABI, LOCAL_POOLS, type LocalPool } from "../chains/defi/index.js";

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The pool trading `tokenA` against `tokenB` (either order), or undefined. */
export function poolFor(tokenA: string, tokenB: string): LocalPool | undefined {
  return LOCAL_POOLS.find((p) => (same(p.token0.address, tokenA) && same(p.token1.address, tokenB)) || (same(p.token0.address, tokenB) && same(p.token1.address, tokenA)));
}

/** x·y=k with the fee taken on the input, rounded down: exactly what ConstantProductPool.swap pays. */
export function quoteExactIn(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, feeBps: bigint): bigint {
  if (amountIn <= 0n || reserveIn <= 0n || reserveOut <= 0n) return 0n;
  const inWithFee = amountIn * (10_000n - feeBps);
  return (inWithFee * reserveOut) / (reserveIn * 10_000n + inWithFee);
}

/** The pool's reserves, in its token0/token1 order. */
export async function readReserves(chain: EvmChain, pool: LocalPool, blockTag = "latest"): Promise<{ reserve0: bigint; reserve1: bigint }> {
  const out = await chain.call({ to: pool.pool, data: encodeFunctionData({ abi: CONSTANT_PRODUCT_POOL_ABI, functionName: "getReserves" }) }, blockTag);
  const [reserve0, reserve1] = decodeFunctionResult({ abi: CONSTANT_PRODUCT_POOL_ABI, functionName: "getReserves", data: out });
  return { reserve0, reserve1 };
}

/** What swapping `amountIn` of `tokenIn` on `pool` pays out now, from its reserves. */
export async function quoteSwap(chain: EvmChain, pool: LocalPool, tokenIn: string, amountIn: bigint): Promise<bigint> {
  const { reserve0, reserve1 } = await readReserves(chain, pool);
  const zeroForOne = same(pool.token0.address, tokenIn);
  if (!zeroForOne && !same(pool.token1.address, tokenIn)) throw new Error(`${tokenIn} is not traded by pool ${pool.pool}`);
  return zeroForOne ? quoteExactIn(amountIn, reserve0, reserve1, pool.feeBps) : quoteExactIn(amountIn, reserve1, reserve0, pool.feeBps);
}

/** Calldata of `pool.swap(tokenIn, amountIn, minAmountOut, to)`; the pool pulls `amountIn` with transferFrom. */
export function swapCalldata(tokenIn: Hex, amountIn: bigint, minAmountOut: bigint, to: Hex): Hex {
  return encodeFunctionData({ abi: CONSTANT_PRODUCT_POOL_ABI, functionName: "swap", args: [tokenIn, amountIn, minAmountOut, to] });
}

/**
 * Calldata of the router's swaps (families/chains/defi/LocalSwapRouter.sol, at SWAP_ROUTER): `tokensForEth` pulls
 * `amountIn` of `tokenIn` (approve the router first) and sends the ether `pool` pays to `to`;
 * `ethForTokens` swaps the ether sent with the call (its value) for `pool`'s other token.
 */
export const routerCalldata = {
  tokensForEth: (pool: Hex, tokenIn: Hex, amountIn: bigint, minAmountOut: bigint, to: Hex): Hex =>
    encodeFunctionData({ abi: LOCAL_SWAP_ROUTER_ABI, functionName: "swapExactTokensForETH", args: [pool, tokenIn, amountIn, minAmountOut, to] }),
  ethForTokens: (pool: Hex, minAmountOut: bigint, to: Hex): Hex => encodeFunctionData({ abi: LOCAL_SWAP_ROUTER_ABI, functionName: "swapExactETHForTokens", args: [pool, minAmountOut, to] }),
};
