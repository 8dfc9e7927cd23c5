/** Wire forms (v1Wallet, v1WalletAccount, v1PrivateKey) of stored rows. */
import { toTimestamp } from "../clock.js";
import type { WalletAccountRow, WalletRow } from "../store/wallets.js";
import type { PrivateKeyRow } from "../store/private-keys.js";

export function renderWallet(w: WalletRow): Record<string, unknown> {
  return { walletId: w.id, walletName: w.name, createdAt: toTimestamp(w.createdAt), updatedAt: toTimestamp(w.updatedAt), exported: w.exported, imported: w.imported };
}

export function renderWalletAccount(a: WalletAccountRow, wallet?: WalletRow): Record<string, unknown> {
  return {
    walletAccountId: a.id,
    organizationId: a.orgId,
    walletId: a.walletId,
    curve: a.curve,
    pathFormat: "PATH_FORMAT_BIP32",
    path: a.path,
    addressFormat: a.addressFormat,
    address: a.address,
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
    publicKey: a.publicKey,
    ...(wallet ? { walletDetails: renderWallet(wallet) } : {}),
    ...(a.name !== null ? { name: a.name } : {}),
  };
}

export function renderPrivateKey(k: PrivateKeyRow, tagIds: string[]): Record<string, unknown> {
  return {
    privateKeyId: k.id,
    publicKey: k.publicKey,
    privateKeyName: k.name,
    curve: k.curve,
    addresses: k.addresses,
    privateKeyTags: tagIds,
    createdAt: toTimestamp(k.createdAt),
    updatedAt: toTimestamp(k.updatedAt),
    exported: k.exported,
    imported: k.imported,
  };
}
