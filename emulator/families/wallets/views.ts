/** Wire forms (v1Wallet, v1WalletAccount, v1PrivateKey) of stored rows. */
import { toTimestamp } from "../../core/clock.js";
import type { WalletAccountRow, WalletRow } from "./wallets-repository.js";
import type { PrivateKeyRow } from "./private-keys-repository.js";
import type { Wire } from "../../../contracts/wire.js";

export function renderWallet(w: WalletRow): Wire["v1Wallet"] {
  return { walletId: w.id, walletName: w.name, createdAt: toTimestamp(w.createdAt), updatedAt: toTimestamp(w.updatedAt), exported: w.exported, imported: w.imported };
}

export function renderWalletAccount(a: WalletAccountRow, wallet?: WalletRow): Wire["v1WalletAccount"] {
  return {
    walletAccountId: a.id,
    organizationId: a.orgId,
    walletId: a.walletId,
    curve: a.curve as Wire["v1Curve"],
    pathFormat: "PATH_FORMAT_BIP32",
    path: a.path,
    addressFormat: a.addressFormat as Wire["v1AddressFormat"],
    address: a.address,
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
    publicKey: a.publicKey,
    ...(wallet ? { walletDetails: renderWallet(wallet) } : {}),
    ...(a.name !== null ? { name: a.name } : {}),
  };
}

export function renderPrivateKey(k: PrivateKeyRow, tagIds: string[]): Wire["v1PrivateKey"] {
  return {
    privateKeyId: k.id,
    publicKey: k.publicKey,
    privateKeyName: k.name,
    curve: k.curve as Wire["v1Curve"],
    addresses: k.addresses as Wire["externaldatav1Address"][],
    privateKeyTags: tagIds,
    createdAt: toTimestamp(k.createdAt),
    updatedAt: toTimestamp(k.updatedAt),
    exported: k.exported,
    imported: k.imported,
  };
}
