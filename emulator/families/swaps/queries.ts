/**
 * get_swap_status: where a swap of execute_swap stands, read from its chain. A same-chain swap
 * is PENDING until a block holds its transaction, then COMPLETED with the output the account
 * received (the pool's Swap event, or to ether the router's Routed event, less the quote's fees:
 * swappedOutput in swap.ts) or FAILED with the revert
 * (ORIGIN_TRANSACTION_FAILED); one refused before broadcast is FAILED without originTxHash.
 */
import { notFound } from "../../core/errors.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import { parseCaip19 } from "../chains/index.js";
import { renderStatus } from "../chains/index.js";
import type { QueryContext } from "../../core/vocabulary/contexts.js";
import { requireNetworks } from "../chains/index.js";

async function swapStatus(ctx: QueryContext, id: string): Promise<Record<string, unknown>> {
  const swap = ctx.rt.store.swaps.get(ctx.org.id, id);
  const q = swap && ctx.rt.store.swapQuotes.get(ctx.org.id, swap.quoteId);
  if (!swap || !q) throw notFound(`no swap ${id} in organization ${ctx.org.id}`);
  const base = { swapKind: "SAME_CHAIN", provider: q.provider, inputToken: q.inputToken, outputToken: q.outputToken, inputAmount: q.inputAmount };
  const failed = (message: string, extra: Record<string, unknown> = {}) => ({ ...base, status: "FAILED", error: { reason: "ORIGIN_TRANSACTION_FAILED", message, ...extra } });
  if (swap.error) return { ...failed(swap.error.message), updatedAt: String(swap.createdAt) };
  if (!swap.txHash) return { ...base, status: "PENDING", updatedAt: String(swap.createdAt) };
  const chain = await requireNetworks(ctx.rt, "swapRequestId").evm(swap.caip2);
  const status = await chain.getTransactionStatus(swap.txHash);
  const origin = { originTxHash: swap.txHash };
  if (status.status !== "included" && status.status !== "failed") return { ...base, ...origin, status: "PENDING", updatedAt: String(swap.createdAt) };
  const block = await chain.rpc<{ timestamp: string } | null>("eth_getBlockByNumber", [`0x${(status.blockNumber ?? 0n).toString(16)}`, false]);
  const updatedAt = String(block ? Number(BigInt(block.timestamp)) * 1000 : swap.createdAt);
  if (status.status === "failed") {
    const { error } = await renderStatus("eip155", status);
    return { ...failed(`the swap's transaction reverted: ${status.error.message}`, { originTxError: error }), ...origin, updatedAt };
  }
  const { routeOf, swappedOutput } = await import("./swap.js");
  const route = routeOf(parseCaip19(q.inputToken, "inputToken"), parseCaip19(q.outputToken, "outputToken"));
  const gross = "kind" in route ? undefined : await swappedOutput(chain, route, swap.txHash);
  const outputAmount = gross === undefined ? undefined : gross - BigInt(q.turnkeyFee) - BigInt(q.clientFee);
  return { ...base, ...origin, status: "COMPLETED", ...(outputAmount !== undefined ? { outputAmount: outputAmount.toString() } : {}), updatedAt };
}

export const swapQueryOperations = [
  defineQuery("get_swap_status", {
    run: (ctx, body) => swapStatus(ctx, body.swapRequestId) as unknown as Record<string, unknown>,
  }),
];
