/**
 * HD wallets and their accounts: a wallet from a fresh (or imported) mnemonic, sealed at rest,
 * within the organization's wallet limit; accounts derived from its seed (each path once per
 * curve and address format); renaming; deletion under the export rule. Shared by the wallet
 * activities, sub-organization creation, import, TVC quorum keys and the fixtures' seeding (a
 * wallet stored as given: insertWallet).
 */
import { documentedError, invalidArgument, notFound, resourceExhausted, withField } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import { generateMnemonic, mnemonicToSeed, MNEMONIC_LENGTHS } from "../../derivation/index.js";
import { checkAccountParams, checkNoRepeatedPaths, deriveAccount, isChecked, type AccountParams, type CheckedAccount } from "./accounts.js";
import { checkName, requireDistinct, requireExported, requireNonEmpty, requireUuid } from "../../core/vocabulary/lookups.js";
import type { WalletRow } from "./wallets-repository.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";
import type { Store } from "../../core/store/index.js";
import type { Keyring } from "../../core/keyring.js";

export const MAX_WALLETS_PER_ORG = 100;

/**
 * Checks a request's accounts (each, then that no curve, path and address format repeats),
 * naming the field of the one at fault under `field`; what it answers derives without parsing again.
 */
export function checkAccounts(accounts: (AccountParams | CheckedAccount)[], field: string): CheckedAccount[] {
  const checked = accounts.map((a, i) => (isChecked(a) ? a : withField(`${field}[${i}]`, () => checkAccountParams(a))));
  withField(field, () => checkNoRepeatedPaths(checked));
  return checked;
}


export function requireWallet(ctx: DomainContext, walletId: string, field: string): WalletRow {
  requireUuid(walletId, field, "wallet");
  const w = ctx.rt.store.wallets.get(ctx.org.id, walletId);
  if (!w) throw notFound(`wallet not found: ${walletId}`);
  return w;
}

/** Derives and (unless `persist` is false) stores accounts of one wallet, checked by checkAccounts; returns their addresses. */
export function addAccounts(ctx: DomainContext, wallet: WalletRow, seed: Uint8Array, accounts: CheckedAccount[], field: string, persist = true): string[] {
  const { store, keyring } = ctx.rt;
  const cache = keyring.nodeCache(wallet.id);
  return accounts.map((a, i) => {
    const d = withField(`${field}[${i}]`, () => deriveAccount(seed, a, cache));
    if (!persist) return d.address;
    if (store.wallets.accountExists(wallet.id, d.curve, d.pathKey, d.addressFormat)) {
      throw documentedError("INVALID_PATH", `${a.path} is already used by an ${a.addressFormat} account of this wallet`, `${field}[${i}].path`);
    }
    store.wallets.insertAccount({ id: ctx.rt.random.uuid(), orgId: wallet.orgId, walletId: wallet.id, ...d, exported: false, createdAt: ctx.now, updatedAt: ctx.now });
    return d.address;
  });
}

/** create_wallet_accounts: new accounts of a wallet of the organization (`persist` false: derived only). */
export function createWalletAccounts(ctx: DomainContext, walletId: string, accounts: AccountParams[], persist = true): string[] {
  const wallet = requireWallet(ctx, walletId, "parameters.walletId");
  requireNonEmpty(accounts, "parameters.accounts");
  const checked = checkAccounts(accounts, "parameters.accounts");
  return addAccounts(ctx, wallet, ctx.rt.keyring.seedOf(wallet), checked, "parameters.accounts", persist);
}

export type NewWallet = { id: string; orgId: string; name: string; mnemonic: string; accounts: (AccountParams & { id: string })[] };

/**
 * Stores a wallet as given (a fixture's, checked already): its sealed mnemonic and its accounts
 * under their own ids, derived from its seed (an error names `field`.accounts[i]).
 */
export function insertWallet(store: Store, keyring: Keyring, w: NewWallet, now: number, field: string): void {
  store.wallets.insert({ id: w.id, orgId: w.orgId, name: w.name, mnemonicSealed: keyring.sealMnemonic(w.mnemonic), exported: false, imported: false, createdAt: now, updatedAt: now });
  const seed = keyring.seedOf(store.wallets.get(w.orgId, w.id)!);
  w.accounts.forEach((a, i) => {
    const d = withField(`${field}.accounts[${i}]`, () => deriveAccount(seed, a, keyring.nodeCache(w.id)));
    store.wallets.insertAccount({ id: a.id, orgId: w.orgId, walletId: w.id, ...d, exported: false, createdAt: now, updatedAt: now });
  });
}

/** Creates a wallet from a fresh (or given) mnemonic; shared with sub-organizations and import. */
export function createWallet(
  ctx: DomainContext,
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
  const accounts = checkAccounts(p.accounts, `${field}.accounts`);
  const phrase = mnemonic ?? withField(field, () => generateMnemonic(length, ctx.rt.random));
  const wallet: WalletRow = {
    id: ctx.rt.random.uuid(),
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
  return { walletId: wallet.id, addresses: addAccounts(ctx, wallet, seed, accounts, `${field}.accounts`) };
}

/** update_wallet: a new name, when given. */
export function updateWallet(ctx: DomainContext, walletId: string, walletName: string | undefined): string {
  const wallet = requireWallet(ctx, walletId, "parameters.walletId");
  if (walletName !== undefined) {
    checkName(walletName, "parameters.walletName");
    ctx.rt.store.wallets.update(wallet.id, { name: walletName }, ctx.now);
  }
  return wallet.id;
}

/** Deletes wallets (with their accounts and cached keys), all or none; returns the ids. */
export function deleteWallets(ctx: DomainContext, walletIds: string[], deleteWithoutExport: boolean | undefined): string[] {
  requireNonEmpty(walletIds, "parameters.walletIds");
  requireDistinct(walletIds, "parameters.walletIds");
  const wallets = walletIds.map((id, i) => requireWallet(ctx, id, `parameters.walletIds[${i}]`));
  requireExported(
    wallets.map((w) => ({ what: `wallet ${w.id}`, exported: w.exported })),
    deleteWithoutExport,
  );
  for (const w of wallets) {
    ctx.rt.store.wallets.delete(w.id);
    ctx.rt.keyring.forget(w.id);
  }
  return walletIds;
}

/** Deletes wallet accounts, all or none; an account counts as exported when it or its wallet was. Returns the ids. */
export function deleteWalletAccounts(ctx: DomainContext, accountIds: string[], deleteWithoutExport: boolean | undefined): string[] {
  const { store } = ctx.rt;
  requireNonEmpty(accountIds, "parameters.walletAccountIds");
  requireDistinct(accountIds, "parameters.walletAccountIds");
  const accounts = accountIds.map((id, i) => {
    const f = `parameters.walletAccountIds[${i}]`;
    if (!/^[0-9a-f-]{36}$/i.test(id)) throw documentedError("INVALID_WALLET_ACCOUNT_UUID", quote(id), f);
    const a = store.wallets.account(ctx.org.id, id);
    if (!a && store.wallets.accountOrgId(id) !== undefined) throw documentedError("WALLET_ACCOUNT_NOT_IN_ORGANIZATION", id, f);
    if (!a) throw notFound(`wallet account not found: ${id}`);
    return a;
  });
  for (const a of accounts) {
    const walletExported = store.wallets.get(ctx.org.id, a.walletId)?.exported ?? false;
    if (!a.exported && !walletExported && !deleteWithoutExport) {
      throw documentedError(
        "WALLET_ACCOUNT_NOT_EXPORTED",
        `${a.id} (${a.address}); export it first or set deleteWithoutExport to delete it anyway`,
        "parameters.deleteWithoutExport",
      );
    }
  }
  for (const a of accounts) store.wallets.deleteAccount(a.id);
  return accountIds;
}
