/**
 * list_eth_transaction_history and list_sol_transaction_history: what an address sent and
 * received on a chain, most recent first, read from the chain (evm-history.ts,
 * solana-history.ts). Transfers are relative to the queried address (IN / OUT with the
 * counterparty); a transaction the emulator sent for the organization carries `turnkey`
 * metadata (sponsored, the activity's fingerprint, when it was submitted). Local chains have
 * instant finality: every listed transaction is FINALIZED. Cursors are transaction hashes /
 * signatures.
 */
import { invalidArgument } from "../../core/errors.js";
import type { QueryContext } from "../../core/vocabulary/contexts.js";
import { pageWithInfo, type PaginationOptions } from "../../core/vocabulary/pagination.js";
import { displayAmount, evmTokenMeta, nativeAsset, tokenCaip19 } from "./assets.js";
import type { EvmChain } from "./evm-chain.js";
import type { SolanaChain } from "./solana-chain.js";
import { isKnownCaip2 } from "./caip2.js";
import { checkEvmAddress, checkSolanaAddress } from "./chain-address.js";
import { requireNetworks } from "./networks.js";

const EVM_HISTORY_CHAINS = ["eip155:1", "eip155:11155111", "eip155:8453", "eip155:84532", "eip155:137", "eip155:80002", "eip155:42161", "eip155:4217", "eip155:42431", "eip155:421614", "eip155:56", "eip155:97"];

function rfc3339(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace(/\.000Z$/, "Z");
}

function turnkeyMeta(ctx: QueryContext, caip2: string, hash: string): Record<string, unknown> | undefined {
  const row = ctx.rt.store.sendTransactions.byHash(ctx.org.id, caip2, hash);
  if (!row) return undefined;
  const activity = ctx.rt.store.activities.get(ctx.org.id, row.activityId);
  return { sponsored: !!row.sponsored, ...(activity?.fingerprint ? { activityFingerprint: activity.fingerprint } : {}), submittedAt: new Date(row.createdAt).toISOString() };
}

export async function ethTransactionHistory(ctx: QueryContext, address: string, caip2: string, p: PaginationOptions | undefined): Promise<Record<string, unknown>> {
  const networks = requireNetworks(ctx.rt, "caip2");
  const id = networks.resolve(caip2);
  if (isKnownCaip2(id) && !EVM_HISTORY_CHAINS.includes(id)) throw invalidArgument(`transaction history is not offered for ${id}`, "caip2");
  const who = checkEvmAddress(address);
  const chain = (await networks.evm(id)) as EvmChain;
  const { evmHistory } = await import("./evm-history.js");
  const all = await evmHistory(chain).of(who);
  const { items, pageInfo } = pageWithInfo(all, (t) => t.hash, p);
  const native = nativeAsset(chain.caip2);
  const transactions = [];
  for (const t of items) {
    const transfers = [];
    for (const x of t.transfers) {
      const out = x.from.toLowerCase() === who.toLowerCase();
      const inn = x.to.toLowerCase() === who.toLowerCase();
      if (!out && !inn) continue;
      const asset = x.token ? await evmTokenMeta(chain, x.token) : native;
      for (const direction of [...(out ? ["OUT"] : []), ...(inn ? ["IN"] : [])]) {
        transfers.push({ direction, asset: { caip19: asset.caip19, symbol: asset.symbol, name: asset.name, decimals: asset.decimals }, amount: x.amount.toString(), counterparty: direction === "OUT" ? x.to : x.from, display: { crypto: displayAmount(x.amount, asset.decimals) } });
      }
    }
    const turnkey = turnkeyMeta(ctx, chain.caip2, t.hash);
    transactions.push({
      transactionHash: t.hash,
      block: { number: t.blockNumber.toString(), hash: t.blockHash, timestamp: rfc3339(t.timestamp) },
      status: "FINALIZED",
      origin: turnkey ? "TURNKEY" : "EXTERNAL",
      from: t.from,
      ...(t.to ? { to: t.to } : {}),
      fee: { amount: t.fee.toString(), caip19: native.caip19 },
      transfers,
      ...(turnkey ? { turnkey } : {}),
    });
  }
  return { transactions, pageInfo };
}

export async function solTransactionHistory(ctx: QueryContext, address: string, caip2: string, p: PaginationOptions | undefined): Promise<Record<string, unknown>> {
  const chain = (await requireNetworks(ctx.rt, "caip2").solana(caip2)) as SolanaChain;
  checkSolanaAddress(address);
  const { solanaHistory } = await import("./solana-history.js");
  const all = await solanaHistory(chain, address);
  const { items, pageInfo } = pageWithInfo(all, (t) => t.signature, p);
  const native = nativeAsset(chain.caip2);
  const decimalsOf = new Map<string, number>();
  for (const m of chain.localEngine?.mints() ?? []) decimalsOf.set(m.mint, m.decimals);
  const transactions = items.map((t) => {
    const transfers = t.transfers.flatMap((x) => {
      const out = x.from === address;
      const inn = x.to === address;
      const decimals = x.mint ? (x.decimals ?? decimalsOf.get(x.mint) ?? 0) : native.decimals;
      const asset = x.mint ? { caip19: tokenCaip19(chain.caip2, x.mint), symbol: `SPL-${x.mint.slice(0, 4)}`, name: `SPL token ${x.mint}`, decimals } : native;
      return [...(out ? ["OUT"] : []), ...(inn ? ["IN"] : [])].map((direction) => ({
        direction,
        asset: { caip19: asset.caip19, symbol: asset.symbol, name: asset.name, decimals: asset.decimals },
        amount: x.amount.toString(),
        counterparty: direction === "OUT" ? x.to : x.from,
        display: { crypto: displayAmount(x.amount, decimals) },
      }));
    });
    const turnkey = turnkeyMeta(ctx, chain.caip2, t.signature);
    return {
      signature: t.signature,
      block: { number: t.slot.toString(), hash: t.blockhash ?? "", timestamp: rfc3339(t.blockTime) },
      status: "FINALIZED",
      origin: turnkey ? "TURNKEY" : "EXTERNAL",
      feePayer: t.feePayer,
      signers: t.signers,
      fee: { amount: t.fee.toString(), caip19: native.caip19 },
      transfers,
      ...(turnkey ? { turnkey } : {}),
    };
  });
  return { transactions, pageInfo };
}
