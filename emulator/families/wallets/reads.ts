/**
 * What other families read of an organization's wallets, accounts and private keys (offered
 * through this family's index.ts): the organization's views, sub-organization deletion and
 * lookups, TVC operators' wallets, velocity controls' wallet groups, the chain watcher's
 * address owners, the control UI's counts per organization.
 */
import type { Runtime } from "../../core/runtime.js";
import type { WalletAccountRow, WalletRow } from "./wallets-repository.js";
import type { PrivateKeyRow } from "./private-keys-repository.js";

export const walletsOf = (rt: Pick<Runtime, "store">, orgId: string): WalletRow[] => rt.store.wallets.list(orgId);

export const walletOf = (rt: Pick<Runtime, "store">, orgId: string, walletId: string): WalletRow | undefined => rt.store.wallets.get(orgId, walletId);

export const walletAccountsOf = (rt: Pick<Runtime, "store">, orgId: string, walletId: string): WalletAccountRow[] => rt.store.wallets.accounts({ orgId, walletId });

/** Whether the wallet has an account of this curve, path and address format. */
export const hasAccount = (rt: Pick<Runtime, "store">, walletId: string, curve: string, pathKey: string, addressFormat: string): boolean => rt.store.wallets.accountExists(walletId, curve, pathKey, addressFormat);

export const privateKeysOf = (rt: Pick<Runtime, "store">, orgId: string): PrivateKeyRow[] => rt.store.privateKeys.list(orgId);

/** The wallet whose account is at `address` in the organization, if any. */
export const walletIdAt = (rt: Pick<Runtime, "store">, orgId: string, address: string): string | undefined => rt.store.wallets.accountByAddress(orgId, address)?.walletId;

/** Whether the organization holds a wallet account or a private key at `address`. */
export const holdsAddress = (rt: Pick<Runtime, "store">, orgId: string, address: string): boolean => !!rt.store.wallets.accountByAddress(orgId, address) || !!rt.store.privateKeys.byAddress(orgId, address);

/** The organizations holding a wallet account at `address`. */
export const organizationsHolding = (rt: Pick<Runtime, "store">, address: string): string[] => rt.store.wallets.organizationsHolding(address);

/** Wallets per organization and private keys per organization, every organization at once (an organization without any is absent). */
export const walletCountsByOrganization = (rt: Pick<Runtime, "store">): { wallets: Map<string, number>; privateKeys: Map<string, number> } => ({
  wallets: rt.store.wallets.countsByOrg(),
  privateKeys: rt.store.privateKeys.countsByOrg(),
});
