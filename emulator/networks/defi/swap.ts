/**
 * A swap on the local pools, the way the emulated swap provider runs it:
 * - the route: which pool trades a pair of assets of one chain (ether in is wrapped into WETH first);
 * - the price: the pool's exact output for the input (its x·y=k formula over its reserves), less
 *   Turnkey's fee and the client fee (both taken out of the output), and the minimum the
 *   requested slippage allows;
 * - the batch the swapping account signs: wrap the ether, approve the pool for exactly the input,
 *   swap with the pool's minimum raised by the fees, and pay each fee out of the output;
 * - the pre-flight check before broadcast, and what a mined swap paid out.
 * The fees' destinations are in swap-fees.ts.
 */
import { decodeEventLog, encodeFunctionData, type Hex } from "viem";
import type { EvmChain } from "../evm-chain.js";
import type { AssetRef } from "../assets.js";
import type { BatchCall } from "../gas-station/delegate.js";
import { CONSTANT_PRODUCT_POOL_ABI, LOCAL_TOKEN_ABI, WRAPPED_ETHER_ABI } from "./artifact.js";
import { LOCAL_POOLS, TUSD, WETH, type LocalPool } from "./deploy.js";
import { approveCalldata, poolFor, quoteExactIn, readReserves, swapCalldata } from "./pool.js";

export const BPS = 10_000n;

/** Why a pair cannot be swapped here: `unsupported` is a route the local chains cannot offer at all (501), `no-pool` a pair no pool trades (400). */
export type RouteRefusal = { kind: "unsupported" | "no-pool"; message: string };

/** A same-chain swap through one local pool. `tokenIn` is WETH when the input is ether. */
export type SwapRoute = { caip2: string; pool: LocalPool; input: AssetRef; output: AssetRef; tokenIn: Hex; tokenOut: Hex };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The local stablecoins: a pair of two of them is a stablepair (the stable fee applies). */
const STABLE = [TUSD.address];
export const isStablepair = (r: SwapRoute) => STABLE.some((s) => same(s, r.tokenIn)) && STABLE.some((s) => same(s, r.tokenOut));

/** The route of a same-chain EVM pair, or why there is none. */
export function routeOf(input: AssetRef, output: AssetRef): SwapRoute | RouteRefusal {
  if (input.caip2 !== output.caip2) return { kind: "unsupported", message: `a cross-chain swap (${input.caip2} to ${output.caip2}) needs a bridge provider, and the local chains have none: swaps run on one chain's local pools` };
  if (output.native) return { kind: "unsupported", message: `the local pools pay out ERC-20 tokens only: swap to WETH (${input.caip2}/erc20:${WETH.address.toLowerCase()}) and unwrap it with WETH's withdraw` };
  const tokenIn = (input.native ? WETH.address : input.token) as Hex;
  const tokenOut = output.token as Hex;
  if (same(tokenIn, tokenOut)) return { kind: "no-pool", message: input.native ? "ether and WETH are the same asset: wrap it with WETH's deposit instead" : "inputToken and outputToken are the same asset" };
  const pool = poolFor(tokenIn, tokenOut);
  if (!pool) {
    const pools = LOCAL_POOLS.map((p) => `${p.token0.symbol}/${p.token1.symbol} (${p.token0.address}, ${p.token1.address})`).join("; ");
    return { kind: "no-pool", message: `no local pool trades ${input.caip19} against ${output.caip19}: the local pools are ${pools}, and ether in goes through WETH` };
  }
  return { caip2: input.caip2, pool, input, output, tokenIn, tokenOut };
}

export type SwapPrice = {
  /** What the pool pays out for the input. */
  grossOutput: bigint;
  turnkeyFee: bigint;
  clientFee: bigint;
  /** What the account receives: the gross output less both fees. */
  outputAmount: bigint;
  /** The floor after slippage, on outputAmount. */
  minOutputAmount: bigint;
};

/** The price of `amountIn` at reserves `reserveIn`/`reserveOut`: both fees are basis points of the gross output, rounded down. */
export function priceSwap(amountIn: bigint, reserveIn: bigint, reserveOut: bigint, poolFeeBps: bigint, fees: { turnkeyBps: bigint; clientBps: bigint; slippageBps: bigint }): SwapPrice {
  const grossOutput = quoteExactIn(amountIn, reserveIn, reserveOut, poolFeeBps);
  const turnkeyFee = (grossOutput * fees.turnkeyBps) / BPS;
  const clientFee = (grossOutput * fees.clientBps) / BPS;
  const outputAmount = grossOutput - turnkeyFee - clientFee;
  return { grossOutput, turnkeyFee, clientFee, outputAmount, minOutputAmount: (outputAmount * (BPS - fees.slippageBps)) / BPS };
}

/** The pool's reserves as (in, out) for a route. */
export async function reservesOf(chain: EvmChain, route: SwapRoute): Promise<{ reserveIn: bigint; reserveOut: bigint }> {
  const { reserve0, reserve1 } = await readReserves(chain, route.pool);
  return same(route.pool.token0.address, route.tokenIn) ? { reserveIn: reserve0, reserveOut: reserve1 } : { reserveIn: reserve1, reserveOut: reserve0 };
}

export type SwapTerms = { amountIn: bigint; minOutputAmount: bigint; turnkeyFee: bigint; clientFee: bigint };

/** The pool must pay out at least this: the account's floor plus the fees taken out of the output. */
export const poolMinimum = (t: SwapTerms) => t.minOutputAmount + t.turnkeyFee + t.clientFee;

/** The calls the account's batch makes, in order; fees go to `turnkeyFeeTo` and `clientFeeTo`. */
export function swapCalls(route: SwapRoute, terms: SwapTerms, from: Hex, feesTo: { turnkey: Hex; client: Hex | undefined }): BatchCall[] {
  const calls: BatchCall[] = [];
  if (route.input.native) calls.push({ to: route.tokenIn, value: terms.amountIn, data: encodeFunctionData({ abi: WRAPPED_ETHER_ABI, functionName: "deposit" }) });
  calls.push({ to: route.tokenIn, value: 0n, data: approveCalldata(route.pool.pool, terms.amountIn) });
  calls.push({ to: route.pool.pool, value: 0n, data: swapCalldata(route.tokenIn, terms.amountIn, poolMinimum(terms), from) });
  const transfer = (to: Hex, amount: bigint): BatchCall => ({ to: route.tokenOut, value: 0n, data: encodeFunctionData({ abi: LOCAL_TOKEN_ABI, functionName: "transfer", args: [to, amount] }) });
  if (terms.turnkeyFee > 0n) calls.push(transfer(feesTo.turnkey, terms.turnkeyFee));
  if (terms.clientFee > 0n && feesTo.client) calls.push(transfer(feesTo.client, terms.clientFee));
  return calls;
}

/**
 * What the chain says now about a swap about to be sent: why it would fail (the account does not
 * hold the input, or the pool would pay out less than the floor), or undefined when it would go through.
 */
export async function preflight(chain: EvmChain, route: SwapRoute, from: Hex, terms: SwapTerms): Promise<string | undefined> {
  const held = await chain.getBalance(from, route.input.native ? undefined : route.tokenIn);
  if (held < terms.amountIn) return `${from} holds ${held} of ${route.input.caip19}, less than the inputAmount ${terms.amountIn}`;
  const { reserveIn, reserveOut } = await reservesOf(chain, route);
  const now = quoteExactIn(terms.amountIn, reserveIn, reserveOut, route.pool.feeBps);
  if (now < poolMinimum(terms)) {
    return `the pool's output moved below the quote's floor: it would pay out ${now - terms.turnkeyFee - terms.clientFee} after fees, less than minOutputAmount ${terms.minOutputAmount}`;
  }
  return undefined;
}

type Receipt = { logs: { address: string; topics: Hex[]; data: Hex }[] };

/** The gross output of a mined swap: the `amountOut` of the pool's Swap event in its receipt (undefined if it has none). */
export async function swappedOutput(chain: EvmChain, route: SwapRoute, txHash: string): Promise<bigint | undefined> {
  const receipt = await chain.rpc<Receipt | null>("eth_getTransactionReceipt", [txHash]);
  for (const log of receipt?.logs ?? []) {
    if (!same(log.address, route.pool.pool)) continue;
    try {
      const event = decodeEventLog({ abi: CONSTANT_PRODUCT_POOL_ABI, topics: log.topics as [Hex, ...Hex[]], data: log.data });
      if (event.eventName === "Swap") return event.args.amountOut;
    } catch {
      // another event of the pool
    }
  }
  return undefined;
}
