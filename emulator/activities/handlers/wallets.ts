/** HD wallets: create_wallet, create_wallet_accounts, update_wallet, delete_wallets, delete_wallet_accounts. */
import { documentedError, invalidArgument, notFound, resourceExhausted, withField } from "../../errors.js";
import { quote } from "../../input-error.js";
import { newId } from "../../ids.js";
import { generateMnemonic, mnemonicToSeed, MNEMONIC_LENGTHS } from "../../chains/index.js";
import { checkAccountParams, checkNoRepeatedPaths, deriveAccount, type AccountParams } from "../../wallets/accounts.js";
import { checkName, requireDistinct, requireUuid } from "../lookups.js";
import type { WalletRow } from "../../store/wallets.js";
import type { ActivityContext } from "../types.js";
import { defineActivity } from "../../operations/define.js";
import { addressDerivations } from "../../proofs/app-proofs.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

export const MAX_WALLETS_PER_ORG = 100;

export function requireWallet(ctx: ActivityContext, walletId: string, field: string): WalletRow {
  requireUuid(walletId, field, "wallet");
  const w = ctx.rt.store.wallets.get(ctx.org.id, walletId);
  if (!w) throw notFound(`wallet not found: ${walletId}`);
  return w;
}

/** Derives and (unless `persist` is false) stores accounts of one wallet; returns their addresses. */
export function addAccounts(ctx: ActivityContext, wallet: WalletRow, seed: Uint8Array, accounts: AccountParams[], field: string, persist = true): string[] {
  const { store, keyring } = ctx.rt;
  accounts.forEach((a, i) => withField(`${field}[${i}]`, () => checkAccountParams(a)));
  withField(field, () => checkNoRepeatedPaths(accounts));
  const cache = keyring.nodeCache(wallet.id);
  return accounts.map((a, i) => {
    const d = withField(`${field}[${i}]`, () => deriveAccount(seed, a, cache));
    if (!persist) return d.address;
    if (store.wallets.accountExists(wallet.id, d.curve, d.pathKey, d.addressFormat)) {
      throw documentedError("INVALID_PATH", `${a.path} is already used by an ${a.addressFormat} account of this wallet`, `${field}[${i}].path`);
    }
    store.wallets.insertAccount({ id: newId(), orgId: wallet.orgId, walletId: wallet.id, ...d, exported: false, createdAt: ctx.now, updatedAt: ctx.now });
    return d.address;
  });
}

/** Creates a wallet from a fresh (or given) mnemonic; shared with sub-organizations and import. */
export function createWallet(
  ctx: ActivityContext,
  orgId: string,
  p: { walletName: string; accounts: AccountParams[]; mnemonicLength?: number },
  field: string,
  mnemonic?: string,
): { walletId: string; addresses: string[] } {
  const { store, keyring } = ctx.rt;
  checkName(p.walletName, `${field}.walletName`);
  const length = p.mnemonicLength ?? 12;
  if (!MNEMONIC_LENGTHS.includes(length as (typeof MNEMONIC_LENGTHS)[number])) {
    throw invalidArgument(`invalid mnemonic length ${length}: must be one of ${MNEMONIC_LENGTHS.join(", ")}`, `${field}.mnemonicLength`);
  }
  if (store.wallets.count(orgId) >= MAX_WALLETS_PER_ORG) throw resourceExhausted(`organization has reached the maximum of ${MAX_WALLETS_PER_ORG} wallets`);
  p.accounts.forEach((a, i) => withField(`${field}.accounts[${i}]`, () => checkAccountParams(a)));
  withField(`${field}.accounts`, () => checkNoRepeatedPaths(p.accounts));
  const phrase = mnemonic ?? withField(field, () => generateMnemonic(length));
  const wallet: WalletRow = {
    id: newId(),
    orgId,
    name: p.walletName,
    mnemonicSealed: keyring.sealMnemonic(phrase),
    exported: false,
    imported: mnemonic !== undefined,
    createdAt: ctx.now,
    updatedAt: ctx.now,
  };
  store.wallets.insert(wallet);
  const seed = mnemonicToSeed(phrase);
  keyring.remember(wallet.id, seed);
  return { walletId: wallet.id, addresses: addAccounts(ctx, wallet, seed, p.accounts, `${field}.accounts`) };
}

function exportRuleMessage(what: string): string {
  return `${what} has not been exported; export it first or set deleteWithoutExport to delete it anyway`;
}

export const walletOperations = [
  defineActivity("create_wallet", {
    policy: { resource: "WALLET", action: "CREATE", source: "documented" },
    arrayLimits: { accounts: ALLOWANCE.accountsPerRequest },
    appProofs: (intent, result, a) => addressDerivations(a.orgId, result.walletId, result.addresses, intent.accounts),
    run(ctx, p) {
      return createWallet(ctx, ctx.org.id, p, "parameters");
    },
  }),

  defineActivity("create_wallet_accounts", {
    policy: { resource: "WALLET", action: "CREATE", source: "documented" },
    arrayLimits: { accounts: ALLOWANCE.accountsPerRequest },
    subjects: (p) => ({ walletId: p.walletId }),
    appProofs: (intent, result, a) => addressDerivations(a.orgId, intent.walletId, result.addresses, intent.accounts),
    run(ctx, p) {
      const wallet = requireWallet(ctx, p.walletId, "parameters.walletId");
      if (!p.accounts.length) throw invalidArgument("accounts must not be empty", "parameters.accounts");
      const seed = ctx.rt.keyring.seedOf(wallet);
      return { addresses: addAccounts(ctx, wallet, seed, p.accounts, "parameters.accounts", p.persist ?? true) };
    },
  }),

  defineActivity("update_wallet", {
    policy: { resource: "WALLET", action: "UPDATE", source: "documented", params: [["wallet_id", "walletId"]] },
    subjects: (p) => ({ walletId: p.walletId }),
    run(ctx, p) {
      const wallet = requireWallet(ctx, p.walletId, "parameters.walletId");
      if (p.walletName !== undefined) {
        checkName(p.walletName, "parameters.walletName");
        ctx.rt.store.wallets.update(wallet.id, { name: p.walletName }, ctx.now);
      }
      return { walletId: wallet.id };
    },
  }),

  defineActivity("delete_wallets", {
    policy: { resource: "WALLET", action: "DELETE", source: "documented" },
    run(ctx, p) {
      if (!p.walletIds.length) throw invalidArgument("walletIds must not be empty", "parameters.walletIds");
      requireDistinct(p.walletIds, "parameters.walletIds");
      const wallets = p.walletIds.map((id, i) => requireWallet(ctx, id, `parameters.walletIds[${i}]`));
      for (const w of wallets) {
        if (!w.exported && !p.deleteWithoutExport) throw invalidArgument(exportRuleMessage(`wallet ${w.id}`), "parameters.deleteWithoutExport", "WALLET_ACCOUNT_NOT_EXPORTED");
      }
      for (const w of wallets) {
        ctx.rt.store.wallets.delete(w.id);
        ctx.rt.keyring.forget(w.id);
      }
      return { walletIds: p.walletIds };
    },
  }),

  defineActivity("delete_wallet_accounts", {
    policy: { resource: "WALLET", action: "DELETE", source: "documented" },
    run(ctx, p) {
      const { store } = ctx.rt;
      if (!p.walletAccountIds.length) throw invalidArgument("walletAccountIds must not be empty", "parameters.walletAccountIds");
      requireDistinct(p.walletAccountIds, "parameters.walletAccountIds");
      const accounts = p.walletAccountIds.map((id, i) => {
        const f = `parameters.walletAccountIds[${i}]`;
        if (!/^[0-9a-f-]{36}$/i.test(id)) throw documentedError("INVALID_WALLET_ACCOUNT_UUID", quote(id), f);
        const a = store.wallets.account(ctx.org.id, id);
        if (!a && store.wallets.accountOrgId(id) !== undefined) throw documentedError("WALLET_ACCOUNT_NOT_IN_ORGANIZATION", id, f);
        if (!a) throw notFound(`wallet account not found: ${id}`);
        return a;
      });
      for (const a of accounts) {
        const walletExported = store.wallets.get(ctx.org.id, a.walletId)?.exported ?? false;
        if (!a.exported && !walletExported && !p.deleteWithoutExport) {
          throw documentedError(
            "WALLET_ACCOUNT_NOT_EXPORTED",
            `${a.id} (${a.address}); export it first or set deleteWithoutExport to delete it anyway`,
            "parameters.deleteWithoutExport",
          );
        }
      }
      for (const a of accounts) store.wallets.deleteAccount(a.id);
      return { walletAccountIds: p.walletAccountIds };
    },
  }),
];
