/**
 * Chain-backed queries: get_send_transaction_status (the fate of a transaction the emulator
 * broadcast, read from its chain), get_wallet_address_balances and list_supported_assets
 * (native coin, ERC-20 tokens and SPL mints found on the chain), get_nonces (account nonce and
 * gas-station nonce), get_gas_usage (the gas station's sponsorship in its window) and the
 * EVM / Solana transaction histories.
 */
import { invalidArgument, notFound } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import type { Networks } from "./networks.js";
import { statusOfRow } from "./send-status.js";
import type { QueryContext } from "../../core/vocabulary/contexts.js";
import { displayAmount, holdings, supportedAssets } from "./assets.js";
import { gasUsage } from "./gas-station/usage.js";
import { ethTransactionHistory, solTransactionHistory } from "./transaction-history.js";
import { checkChainAddress, checkEvmAddress } from "./chain-address.js";
import { requireNetworks } from "./networks.js";

const networksOf = (ctx: QueryContext, field: string): Networks => requireNetworks(ctx.rt, field);

async function sendTransactionStatus(ctx: QueryContext, id: string): Promise<Record<string, unknown>> {
  const row = ctx.rt.store.sendTransactions.get(ctx.org.id, id);
  if (!row) throw notFound(`no send transaction status ${id} in organization ${ctx.org.id}`);
  return (await statusOfRow(ctx, row)).record;
}

/**
 * "Private key addresses are not supported" (tkhq/docs api-reference/queries/get-balances.mdx:24):
 * an address only a private key of the organization holds is refused, naming it (no documented
 * message: UNCONFIRMED `balances-private-key-address`). Other addresses are read from the chain.
 */
function refusePrivateKeyAddress(ctx: QueryContext, given: string, owner: string): void {
  const { wallets, privateKeys } = ctx.rt.store;
  const forms = [...new Set([given, owner])];
  const key = forms.map((a) => privateKeys.byAddress(ctx.org.id, a)).find(Boolean);
  if (!key || forms.some((a) => wallets.accountByAddress(ctx.org.id, a))) return;
  throw invalidArgument(`address ${quote(given)} belongs to private key ${key.id}: private key addresses are not supported, only wallet account addresses`, "address");
}

/** "Only non-zero balances are returned" (get-balances.mdx:3). */
async function balances(ctx: QueryContext, address: string, caip2: string): Promise<Record<string, unknown>> {
  const networks = networksOf(ctx, "caip2");
  const id = networks.resolve(caip2);
  const owner = checkChainAddress(id, address);
  refusePrivateKeyAddress(ctx, address, owner);
  const chain = await networks.get(id);
  const held = (await holdings(chain, owner)).filter((h) => h.balance > 0n);
  return {
    balances: held.map((h) => ({ caip19: h.caip19, symbol: h.symbol, name: h.name, decimals: h.decimals, balance: h.balance.toString(), display: { crypto: displayAmount(h.balance, h.decimals) } })),
  };
}

async function assets(ctx: QueryContext, caip2: string): Promise<Record<string, unknown>> {
  const networks = networksOf(ctx, "caip2");
  const chain = await networks.get(networks.resolve(caip2));
  return { assets: (await supportedAssets(chain)).map(({ caip19, symbol, name, decimals }) => ({ caip19, symbol, name, decimals })) };
}

async function nonces(ctx: QueryContext, body: { address: string; caip2: string; nonce?: boolean; gasStationNonce?: boolean }): Promise<Record<string, unknown>> {
  const address = checkEvmAddress(body.address);
  const chain = await networksOf(ctx, "caip2").evm(body.caip2);
  const out: Record<string, string> = {};
  if (body.nonce) out.nonce = (await chain.getNonce(address)).toString();
  if (body.gasStationNonce) {
    const { gasStationNonce } = await import("./gas-station/delegate.js");
    out.gasStationNonce = (await gasStationNonce(chain, address)).toString();
  }
  return out;
}

export const chainDataQueryOperations = [
  defineQuery("list_supported_assets", {
    run: (ctx, body) => assets(ctx, body.caip2) as unknown as Record<string, unknown>,
  }),
  defineQuery("get_nonces", {
    run: (ctx, body) => nonces(ctx, body) as unknown as Record<string, unknown>,
  }),
  defineQuery("get_send_transaction_status", {
    run: (ctx, body) => sendTransactionStatus(ctx, body.sendTransactionStatusId) as unknown as Record<string, unknown>,
  }),
  defineQuery("get_wallet_address_balances", {
    separateRateLimit: true, // reference/faq.mdx's separate 10 RPS
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
