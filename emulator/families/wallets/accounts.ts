/**
 * Wallet accounts from a seed: validation of the account parameters (curve, path, address
 * format), derivation, and the address in the requested format. Bad input throws an
 * InputError whose path is relative to the account (`curve`, `path`...) or, for the list
 * checks, to the list (`[1].path`).
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { addressFor, curvesFor, deriveKey, formatPath, parsePath, type Curve, type NodeCache } from "../../derivation/index.js";
import { documentedInputError, inputAt, quote } from "../../core/input-error.js";

export type AccountParams = { curve: string; pathFormat: string; path: string; addressFormat: string; name?: string };

export type DerivedAccount = { curve: Curve; path: string; pathKey: string; addressFormat: string; address: string; publicKey: string; name: string | null };

/** An account's parameters once checked: its curve, and its path parsed once (indices and canonical form). */
export type CheckedAccount = AccountParams & { curve: Curve; indices: number[]; pathKey: string };

export const isChecked = (a: AccountParams | CheckedAccount): a is CheckedAccount => "indices" in a;

/** Checks one account's parameters without deriving, and parses its path once. */
export function checkAccountParams(a: AccountParams): CheckedAccount {
  if (a.pathFormat !== "PATH_FORMAT_BIP32") throw documentedInputError("INVALID_PATH_FORMAT", `${quote(a.pathFormat)}: must be PATH_FORMAT_BIP32`, "pathFormat");
  const curves = inputAt("addressFormat", () => curvesFor(a.addressFormat));
  if (!curves.includes(a.curve as Curve)) {
    throw documentedInputError("INVALID_CURVE", `${a.curve} for address format ${a.addressFormat}; supported: ${curves.join(", ")}`, "curve");
  }
  const indices = parsePath(a.path, "path");
  return { ...a, curve: a.curve as Curve, indices, pathKey: formatPath(indices) };
}

/** No two accounts of one request with the same curve, path and address format (the path at fault relative to the list: `[1].path`). */
export function checkNoRepeatedPaths(accounts: CheckedAccount[]): void {
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    const key = `${a.curve}|${a.pathKey}|${a.addressFormat}`;
    if (seen.has(key)) throw documentedInputError("INVALID_PATH", `${a.path} is used twice for ${a.addressFormat} in this request`, `[${i}].path`);
    seen.add(key);
  });
}

/** Derives one account (checked first unless it was); `cache` (the keyring's, for this wallet) lets siblings share their parents. */
export function deriveAccount(seed: Uint8Array, account: AccountParams | CheckedAccount, cache?: NodeCache): DerivedAccount {
  const a = isChecked(account) ? account : checkAccountParams(account);
  const { publicKey } = deriveKey(seed, a.curve, a.indices, { cache });
  return {
    curve: a.curve,
    path: a.path,
    pathKey: a.pathKey,
    addressFormat: a.addressFormat,
    address: addressFor(a.addressFormat, a.curve, publicKey),
    publicKey: bytesToHex(publicKey),
    name: a.name ?? null,
  };
}
