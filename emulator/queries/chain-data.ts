/**
 * Chain-backed queries: get_send_transaction_status (the fate of a transaction the emulator
 * broadcast, read from its chain), get_wallet_address_balances, list_supported_assets and
 * get_nonces.
 */
import { invalidArgument, notFound } from "../errors.js";
import { defineQuery } from "../operations/define.js";
import type { Networks } from "../networks/registry.js";
import type { TxStatus } from "../networks/chain.js";
import type { QueryContext } from "./types.js";
import { lazyModule } from "../lazy-module.js";

const viem = lazyModule<typeof import("viem")>("viem");

function networksOf(ctx: QueryContext, field: string): Networks {
  if (!ctx.rt.networks) throw invalidArgument("this emulator instance runs no chains", field);
  return ctx.rt.networks;
}

/** The published status record: BROADCASTING until a block holds it, then INCLUDED or FAILED. */
function renderStatus(namespace: "eip155" | "solana", s: TxStatus): Record<string, unknown> {
  const ref = namespace === "eip155" ? { eth: { txHash: s.hash } } : { solana: { signature: s.hash } };
  if (s.status === "included") return { txStatus: "INCLUDED", ...ref };
  if (s.status === "failed") {
    const e = s.error;
    const error =
      namespace === "eip155"
        ? {
            message: e.message,
            eth: {
              revertChain: [
                {
                  errorType: e.revertReason ? "native" : "unknown",
                  displayMessage: e.message,
                  ...(e.revertReason ? { native: { nativeType: e.revertReason.startsWith("panic") ? "panic" : "error_string", message: e.revertReason } } : { unknown: { ...(e.revertData ? { selector: e.revertData.slice(0, 10), data: e.revertData } : {}) } }),
                },
              ],
            },
          }
        : { message: e.message, solana: { source: "transaction", ...(e.solanaError !== undefined ? { transactionErrorJson: JSON.stringify(e.solanaError) } : {}), ...(e.logs ? { logs: e.logs } : {}) } };
    return { txStatus: "FAILED", ...ref, txError: e.message, error };
  }
  return { txStatus: "BROADCASTING", ...ref };
}

async function sendTransactionStatus(ctx: QueryContext, id: string): Promise<Record<string, unknown>> {
  const row = ctx.rt.store.sendTransactions.get(ctx.org.id, id);
  if (!row) throw notFound(`no send transaction status ${id} in organization ${ctx.org.id}`);
  const chain = await networksOf(ctx, "sendTransactionStatusId").get(row.caip2);
  return renderStatus(row.namespace, await chain.getTransactionStatus(row.txHash));
}

const NATIVE: Record<string, { symbol: string; name: string; decimals: number }> = {
  eip155: { symbol: "ETH", name: "Ether", decimals: 18 },
  solana: { symbol: "SOL", name: "Solana", decimals: 9 },
};
const NATIVE_BY_CHAIN: Record<string, { symbol: string; name: string }> = {
  "eip155:137": { symbol: "POL", name: "Polygon" },
  "eip155:80002": { symbol: "POL", name: "Polygon" },
  "eip155:56": { symbol: "BNB", name: "BNB" },
  "eip155:97": { symbol: "BNB", name: "BNB" },
  "eip155:143": { symbol: "MON", name: "Monad" },
  "eip155:10143": { symbol: "MON", name: "Monad" },
};

function nativeAsset(caip2: string) {
  const ns = caip2.startsWith("eip155:") ? "eip155" : "solana";
  const meta = { ...NATIVE[ns]!, ...(NATIVE_BY_CHAIN[caip2] ?? {}) };
  const caip19 = ns === "eip155" ? `${caip2}/slip44:60` : `${caip2}/slip44:501`;
  return { caip19, ...meta };
}

function display(balance: bigint, decimals: number): string {
  const unit = 10n ** BigInt(decimals);
  const frac = (balance % unit).toString().padStart(decimals, "0").replace(/0+$/, "");
  return frac ? `${balance / unit}.${frac}` : `${balance / unit}`;
}

async function balances(ctx: QueryContext, address: string, caip2: string): Promise<Record<string, unknown>> {
  const networks = networksOf(ctx, "caip2");
  const id = networks.resolve(caip2);
  if (id.startsWith("eip155:") && !viem.isAddress(address, { strict: false })) throw invalidArgument(`address must be a 0x-prefixed 20-byte Ethereum address, got ${JSON.stringify(address)}`, "address");
  if (id.startsWith("solana:") && !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(address)) throw invalidArgument(`address must be a base58 Solana address, got ${JSON.stringify(address)}`, "address");
  const chain = await networks.get(id);
  const owner = id.startsWith("eip155:") ? viem.getAddress(address) : address;
  const balance = await chain.getBalance(owner);
  const asset = nativeAsset(id);
  return { balances: [{ caip19: asset.caip19, symbol: asset.symbol, name: asset.name, decimals: asset.decimals, balance: balance.toString(), display: { crypto: display(balance, asset.decimals) } }] };
}

async function nonces(ctx: QueryContext, body: { address: string; caip2: string; nonce?: boolean; gasStationNonce?: boolean }): Promise<Record<string, unknown>> {
  if (!viem.isAddress(body.address, { strict: false })) throw invalidArgument(`address must be a 0x-prefixed 20-byte Ethereum address, got ${JSON.stringify(body.address)}`, "address");
  if (body.gasStationNonce) throw invalidArgument("gasStationNonce: this emulator runs no gas station (sponsored sends are not emulated)", "gasStationNonce");
  if (!body.nonce) return {};
  const chain = await networksOf(ctx, "caip2").evm(body.caip2);
  return { nonce: (await chain.getNonce(viem.getAddress(body.address))).toString() };
}

export const chainDataQueryOperations = [
  defineQuery("list_supported_assets", {
    run: (ctx, body) => {
      const { caip19, symbol, name, decimals } = nativeAsset(networksOf(ctx, "caip2").resolve(body.caip2));
      return { assets: [{ caip19, symbol, name, decimals }] };
    },
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
];
