/**
 * A swap on the local pools, the way the emulated swap provider runs it:
 * - the route: which pool trades a pair of assets of one chain (ether on either side trades as
 *   WETH, through the router, which wraps or unwraps it);
 * - the price: the pool's exact output for the input (its x·y=k formula over its reserves), less
 *   Turnkey's fee and the client fee (both taken out of the output), and the minimum the
 *   requested slippage allows;
 * - the batch the swapping account signs: approve the pool (or the router) for exactly the input
 *   and swap with the pool's minimum raised by the fees (ether in: one router call carrying the
 *   ether), then pay each fee out of the output;
 * - the pre-flight check before broadcast, and what a mined swap paid out.
 * The fees' destinations are in fees.ts.
 */
import { decodeEventLog, encodeFunctionData, type Hex } from "viem";
import type { EvmChain } from "../chains/index.js";
import type { AssetRef } from "../chains/index.js";
import type { BatchCall } from "../chains/gas-station/index.js";
import { CONSTANT_PRODUCT_POOL_ABI, LOCAL_SWAP_ROUTER_ABI, LOCAL_TOKEN_ABI, WRAPPED_ETHER_ABI, LOCAL_POOLS, SWAP_ROUTER, TUSD, WETH, type LocalPool, approveCalldata } from "../chains/defi/index.js";
import { poolFor, quoteExactIn, readReserves, routerCalldata, swapCalldata } from "./pools.js";

export const BPS = 10_000n;

/** Why a pair cannot be swapped here: `unsupported` is a route the local chains cannot offer at all (501), `no-pool` a pair no pool trades (400). */
export type RouteRefusal = { kind: "unsupported" | "no-pool"; message: string };

/** A same-chain swap through one local pool. `tokenIn` (`tokenOut`) is WETH when the input (output) is ether. */
export type SwapRoute = { caip2: string; pool: LocalPool; input: AssetRef; output: AssetRef; tokenIn: Hex; tokenOut: Hex };

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The local stablecoins: a pair of two of them is a stablepair (the stable fee applies). */
const STABLE = [TUSD.address];
export const isStablepair = (r: SwapRoute) => STABLE.some((s) => same(s, r.tokenIn)) && STABLE.some((s) => same(s, r.tokenOut));

/** The route of a same-chain EVM pair, or why there is none. */
export function routeOf(input: AssetRef, output: AssetRef): SwapRoute | RouteRefusal {
  if (input.caip2 !== output.caip2) return { kind: "unsupported", message: `a cross-chain swap (${input.caip2} to ${output.caip2}) needs a bridge provider, and the local chains have none: swaps run on one chain's local pools` };
  const tokenIn = (input.native ? WETH.address : input.token) as Hex;
  const tokenOut = (output.native ? WETH.address : output.token) as Hex;
  if (same(tokenIn, tokenOut)) {
    const message = input.native === output.native ? "inputToken and outputToken are the same asset" : input.native ? "ether and WETH are the same asset: wrap it with WETH's deposit instead" : "WETH and ether are the same asset: unwrap it with WETH's withdraw instead";
    return { kind: "no-pool", message };
  }
  const pool = poolFor(tokenIn, tokenOut);
  if (!pool) {
    const pools = LOCAL_POOLS.map((p) => `${p.token0.symbol}/${p.token1.symbol} (${p.token0.address}, ${p.token1.address})`).join("; ");
    return { kind: "no-pool", message: `no local pool trades ${input.caip19} against ${output.caip19}: the local pools are ${pools}, and ether goes through WETH` };
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

/**
 * The calls the account's batch makes, in order: the swap (through the router when ether is on
 * either side), then Turnkey's fee to `feesTo.turnkey` and the client fee to `feesTo.client` (a fee
 * vault), in the output token. Out of an ether output Turnkey's fee is sent as ether and the client
 * fee is wrapped into WETH first: a fee vault's own ether is its gas, so what it accrues stays a
 * token it can pay out exactly.
 */
export function swapCalls(route: SwapRoute, terms: SwapTerms, from: Hex, feesTo: { turnkey: Hex; client: Hex | undefined }): BatchCall[] {
  const minimum = poolMinimum(terms);
  const { pool } = route.pool;
  const calls: BatchCall[] = route.input.native
    ? [{ to: SWAP_ROUTER, value: terms.amountIn, data: routerCalldata.ethForTokens(pool, minimum, from) }]
    : route.output.native
      ? [
          { to: route.tokenIn, value: 0n, data: approveCalldata(SWAP_ROUTER, terms.amountIn) },
          { to: SWAP_ROUTER, value: 0n, data: routerCalldata.tokensForEth(pool, route.tokenIn, terms.amountIn, minimum, from) },
        ]
      : [
          { to: route.tokenIn, value: 0n, data: approveCalldata(pool, terms.amountIn) },
          { to: pool, value: 0n, data: swapCalldata(route.tokenIn, terms.amountIn, minimum, from) },
        ];
  const transfer = (to: Hex, amount: bigint): BatchCall => ({ to: route.tokenOut, value: 0n, data: encodeFunctionData({ abi: LOCAL_TOKEN_ABI, functionName: "transfer", args: [to, amount] }) });
  const wrap = (amount: bigint): BatchCall => ({ to: WETH.address, value: amount, data: encodeFunctionData({ abi: WRAPPED_ETHER_ABI, functionName: "deposit" }) });
  if (terms.turnkeyFee > 0n) calls.push(route.output.native ? { to: feesTo.turnkey, value: terms.turnkeyFee, data: "0x" } : transfer(feesTo.turnkey, terms.turnkeyFee));
  if (terms.clientFee > 0n && feesTo.client) calls.push(...(route.output.native ? [wrap(terms.clientFee)] : []), transfer(feesTo.client, terms.clientFee));
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

/**
 * The gross output of a mined swap, from its receipt (undefined if it has none): to ether, the
 * `amountOut` of the router's Routed event (the ether it sent on, exactly what it unwrapped);
 * otherwise the `amountOut` of the pool's Swap event.
 */
export async function swappedOutput(chain: EvmChain, route: SwapRoute, txHash: string): Promise<bigint | undefined> {
  const receipt = await chain.rpc<Receipt | null>("eth_getTransactionReceipt", [txHash]);
  const [emitter, abi, eventName] = route.output.native ? [SWAP_ROUTER, LOCAL_SWAP_ROUTER_ABI, "Routed"] : [route.pool.pool, CONSTANT_PRODUCT_POOL_ABI, "Swap"];
  for (const log of receipt?.logs ?? []) {
    if (!same(log.address, emitter)) continue;
    try {
      const event = decodeEventLog({ abi, topics: log.topics as [Hex, ...Hex[]], data: log.data });
      if (event.eventName === eventName) return (event.args as { amountOut: bigint }).amountOut;
    } catch {
      // another event of the emitter
    }
  }
  return undefined;
}
