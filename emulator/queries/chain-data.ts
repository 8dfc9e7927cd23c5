/**
 * Chain-backed queries: get_send_transaction_status (the fate of a transaction the emulator
 * broadcast, read from its chain), get_wallet_address_balances and list_supported_assets
 * (native coin, ERC-20 tokens and SPL mints found on the chain), get_nonces (account nonce and
 * gas-station nonce), get_gas_usage (the gas station's sponsorship in its window) and the
 * EVM / Solana transaction histories.
 */
import { invalidArgument, notFound } from "../errors.js";
import { defineQuery } from "../operations/define.js";
import type { Networks } from "../networks/registry.js";
import type { TxStatus } from "../networks/chain.js";
import type { QueryContext } from "./types.js";
import { lazyModule } from "../lazy-module.js";
import { displayAmount, holdings, nativeAsset, supportedAssets } from "../networks/assets.js";
import { gasUsage } from "../networks/gas-station/usage.js";
import { ethTransactionHistory, solTransactionHistory } from "./transaction-history.js";
import type { SendTransactionRow } from "../store/send-transactions.js";

const viem = lazyModule<typeof import("viem")>("viem");

function networksOf(ctx: QueryContext, field: string): Networks {
  if (!ctx.rt.networks) throw invalidArgument("this emulator instance runs no chains", field);
  return ctx.rt.networks;
}

/** Custom errors of the gas-station delegate, decoded for the revert chain. */
async function customRevert(data: string): Promise<{ errorName: string; paramsJson: string } | undefined> {
  try {
    const [{ decodeErrorResult }, { GAS_DELEGATE_ABI }] = await Promise.all([import("viem"), import("../networks/gas-station/artifact.js")]);
    const r = decodeErrorResult({ abi: GAS_DELEGATE_ABI, data: data as `0x${string}` });
    const def = GAS_DELEGATE_ABI.find((e) => e.type === "error" && e.name === r.errorName) as { inputs?: readonly { name: string }[] } | undefined;
    const names = (def?.inputs ?? []).map((i) => i.name);
    const params = Object.fromEntries((r.args ?? []).map((a, i) => [names[i] ?? String(i), typeof a === "bigint" ? a.toString() : a]));
    return { errorName: r.errorName, paramsJson: JSON.stringify(params) };
  } catch {
    return undefined;
  }
}

/** The published status record: BROADCASTING until a block holds it, then INCLUDED or FAILED. */
export async function renderStatus(namespace: "eip155" | "solana", s: TxStatus): Promise<Record<string, unknown>> {
  const ref = namespace === "eip155" ? { eth: { txHash: s.hash } } : { solana: { signature: s.hash } };
  if (s.status === "included") return { txStatus: "INCLUDED", ...ref };
  if (s.status === "failed") {
    const e = s.error;
    let error: Record<string, unknown>;
    if (namespace === "eip155") {
      const custom = !e.revertReason && e.revertData ? await customRevert(e.revertData) : undefined;
      const entry = e.revertReason
        ? { errorType: "native", displayMessage: e.message, native: { nativeType: e.revertReason.startsWith("panic") ? "panic" : "error_string", message: e.revertReason } }
        : custom
          ? { errorType: "custom", displayMessage: `${custom.errorName}(${custom.paramsJson})`, custom }
          : { errorType: "unknown", displayMessage: e.message, unknown: { ...(e.revertData ? { selector: e.revertData.slice(0, 10), data: e.revertData } : {}) } };
      error = { message: custom ? `execution reverted: ${custom.errorName}` : e.message, eth: { revertChain: [entry] } };
    } else {
      error = { message: e.message, solana: { source: "transaction", ...(e.solanaError !== undefined ? { transactionErrorJson: JSON.stringify(e.solanaError) } : {}), ...(e.logs ? { logs: e.logs } : {}) } };
    }
    return { txStatus: "FAILED", ...ref, txError: String(error.message), error };
  }
  return { txStatus: "BROADCASTING", ...ref };
}

/** The status of one recorded send: a refusal recorded at broadcast, else what the chain says now. */
export async function statusOfRow(ctx: { rt: QueryContext["rt"] }, row: SendTransactionRow): Promise<{ record: Record<string, unknown>; status: TxStatus | undefined }> {
  if (row.error) {
    const ref = row.namespace === "eip155" ? { eth: { txHash: row.txHash } } : { solana: { signature: row.txHash } };
    return { record: { txStatus: "FAILED", ...ref, txError: String(row.error.message ?? ""), error: row.error }, status: undefined };
  }
  if (!ctx.rt.networks) throw invalidArgument("this emulator instance runs no chains", "sendTransactionStatusId");
  const chain = await ctx.rt.networks.get(row.caip2);
  const status = await chain.getTransactionStatus(row.txHash);
  return { record: await renderStatus(row.namespace, status), status };
}

async function sendTransactionStatus(ctx: QueryContext, id: string): Promise<Record<string, unknown>> {
  const row = ctx.rt.store.sendTransactions.get(ctx.org.id, id);
  if (!row) throw notFound(`no send transaction status ${id} in organization ${ctx.org.id}`);
  return (await statusOfRow(ctx, row)).record;
}

function checkAddress(caip2: string, address: string, field = "address"): string {
  if (caip2.startsWith("eip155:")) {
    if (!viem.isAddress(address, { strict: false })) throw invalidArgument(`address must be a 0x-prefixed 20-byte Ethereum address, got ${JSON.stringify(address)}`, field);
    return viem.getAddress(address);
  }
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) throw invalidArgument(`address must be a base58 Solana address, got ${JSON.stringify(address)}`, field);
  return address;
}

async function balances(ctx: QueryContext, address: string, caip2: string): Promise<Record<string, unknown>> {
  const networks = networksOf(ctx, "caip2");
  const id = networks.resolve(caip2);
  const owner = checkAddress(id, address);
  const chain = await networks.get(id);
  const held = await holdings(chain, owner);
  return {
    balances: held.map((h) => ({ caip19: h.caip19, symbol: h.symbol, name: h.name, decimals: h.decimals, balance: h.balance.toString(), display: { crypto: displayAmount(h.balance, h.decimals) } })),
  };
}

async function nonces(ctx: QueryContext, body: { address: string; caip2: string; nonce?: boolean; gasStationNonce?: boolean }): Promise<Record<string, unknown>> {
  if (!viem.isAddress(body.address, { strict: false })) throw invalidArgument(`address must be a 0x-prefixed 20-byte Ethereum address, got ${JSON.stringify(body.address)}`, "address");
  const chain = await networksOf(ctx, "caip2").evm(body.caip2);
  const address = viem.getAddress(body.address);
  const out: Record<string, string> = {};
  if (body.nonce) out.nonce = (await chain.getNonce(address)).toString();
  if (body.gasStationNonce) {
    const { gasStationNonce } = await import("../networks/gas-station/delegate.js");
    out.gasStationNonce = (await gasStationNonce(chain, address)).toString();
  }
  return out;
}

export const chainDataQueryOperations = [
  defineQuery("list_supported_assets", {
    run: (ctx, body) =>
      (async () => {
        const networks = networksOf(ctx, "caip2");
        const chain = await networks.get(networks.resolve(body.caip2));
        return { assets: (await supportedAssets(chain)).map(({ caip19, symbol, name, decimals }) => ({ caip19, symbol, name, decimals })) };
      })() as unknown as Record<string, unknown>,
  }),
  defineQuery("get_nonces", {
    run: (ctx, body) => nonces(ctx, body) as unknown as Record<string, unknown>,
  }),
  defineQuery("get_send_transaction_status", {
    run: (ctx, body) => sendTransactionStatus(ctx, body.sendTransactionStatusId) as unknown as Record<string, unknown>,
  }),
  defineQuery("get_wallet_address_balances", {
    run: (ctx, body) => balances(ctx, body.address, body.caip2) as unknown as Record<string, unknown>,
  }),
  defineQuery("get_gas_usage", {
    run: (ctx) => gasUsage(ctx.rt, ctx.org, ctx.now) as unknown as Record<string, unknown>,
  }),
  defineQuery("list_eth_transaction_history", {
    run: (ctx, body) => ethTransactionHistory(ctx, body.address, body.caip2, body.paginationOptions) as unknown as Record<string, unknown>,
  }),
  defineQuery("list_sol_transaction_history", {
    run: (ctx, body) => solTransactionHistory(ctx, body.address, body.caip2, body.paginationOptions) as unknown as Record<string, unknown>,
  }),
];

export { nativeAsset, checkAddress };
