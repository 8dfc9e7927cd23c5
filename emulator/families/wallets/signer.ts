/**
 * `signWith` resolution: a wallet account address, a private key address, or a private key
 * id, turned into the key that signs and what the policy engine may want to know about it.
 */
import type { Curve } from "../../derivation/index.js";
import { publicKeyOf } from "../../curves/index.js";
import { InputError, quote } from "../../core/input-error.js";
import { isUuid } from "../../core/ids.js";
import type { Runtime } from "../../core/runtime.js";
import type { WalletAccountRow, WalletRow } from "./wallets-repository.js";
import type { PrivateKeyRow } from "./private-keys-repository.js";
import type { SigningKey } from "../../signing/index.js";
import type { ResolvedSigner } from "../../core/vocabulary/contexts.js";

declare module "../../core/vocabulary/contexts.js" {
  /** A key a `signWith` names is a wallet account's (with its wallet) or a private key. */
  interface SignerDetails {
    account?: WalletAccountRow;
    wallet?: WalletRow;
    privateKey?: PrivateKeyRow;
  }
}

export type { ResolvedSigner };

/** Schnorr for Bitcoin Taproot (BIP-341 tweaked) and Spark (plain BIP-340); else the curve's scheme. */
export function schemeFor(addressFormat: string | undefined): SigningKey["scheme"] {
  if (!addressFormat) return "ECDSA";
  if (/^ADDRESS_FORMAT_BITCOIN_[A-Z]+_P2TR$/.test(addressFormat)) return "BIP341_TAPROOT";
  if (addressFormat.startsWith("ADDRESS_FORMAT_SPARK_")) return "BIP340";
  return "ECDSA";
}


/** Bad input: an InputError at `signWith` when it is empty, "not_found" when nothing in the organization answers to it. */
export function resolveSigner(rt: Runtime, orgId: string, signWith: string): ResolvedSigner {
  if (!signWith) throw new InputError("signWith is required", "signWith");
  const { store, keyring } = rt;
  const account = store.wallets.accountByAddress(orgId, signWith);
  if (account) {
    const wallet = store.wallets.get(orgId, account.walletId)!;
    const curve = account.curve as Curve;
    const { privateKey, publicKey } = keyring.accountKey(wallet, curve, account.path);
    return { key: { curve, privateKey, scheme: schemeFor(account.addressFormat) }, publicKey, addressFormat: account.addressFormat, account, wallet };
  }
  const pk = isUuid(signWith) ? store.privateKeys.get(orgId, signWith) : store.privateKeys.byAddress(orgId, signWith);
  if (pk) {
    const curve = pk.curve as Curve;
    const privateKey = keyring.privateKeyOf(pk);
    const addressFormat = pk.addresses.find((a) => a.address === signWith)?.format;
    return { key: { curve, privateKey, scheme: schemeFor(addressFormat) }, publicKey: publicKeyOf(curve, privateKey), addressFormat, privateKey: pk };
  }
  throw new InputError(`could not find a wallet account or private key for signWith ${quote(signWith)} in organization ${orgId}`, "signWith", "not_found");
}
