/**
 * Wallet accounts from a seed: validation of the account parameters (curve, path, address
 * format), derivation, and the address in the requested format. Bad input throws an
 * InputError whose path is relative to the account (`curve`, `path`...) or, for the list
 * checks, to the list (`[1].path`).
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { addressFor, curvesFor, deriveKey, normalizePath, parsePath, type Curve, type NodeCache } from "../../derivation/index.js";
import { documentedInputError, inputAt, quote } from "../../core/input-error.js";

export type AccountParams = { curve: string; pathFormat: string; path: string; addressFormat: string; name?: string };

export type DerivedAccount = { curve: Curve; path: string; pathKey: string; addressFormat: string; address: string; publicKey: string; name: string | null };

/** Checks one account's parameters without deriving (cheap, for up-front validation). */
export function checkAccountParams(a: AccountParams): void {
  if (a.pathFormat !== "PATH_FORMAT_BIP32") throw documentedInputError("INVALID_PATH_FORMAT", `${quote(a.pathFormat)}: must be PATH_FORMAT_BIP32`, "pathFormat");
  const curves = inputAt("addressFormat", () => curvesFor(a.addressFormat));
  if (!curves.includes(a.curve as Curve)) {
    throw documentedInputError("INVALID_CURVE", `${a.curve} for address format ${a.addressFormat}; supported: ${curves.join(", ")}`, "curve");
  }
  parsePath(a.path, "path");
}

/** Derives one account; `cache` (the keyring's, for this wallet) lets siblings share their parents. */
export function deriveAccount(seed: Uint8Array, a: AccountParams, cache?: NodeCache): DerivedAccount {
  checkAccountParams(a);
  const curve = a.curve as Curve;
  const { publicKey } = deriveKey(seed, curve, a.path, { cache });
  return {
    curve,
    path: a.path,
    pathKey: normalizePath(a.path),
    addressFormat: a.addressFormat,
    address: addressFor(a.addressFormat, curve, publicKey),
    publicKey: bytesToHex(publicKey),
    name: a.name ?? null,
  };
}

export function checkNoRepeatedPaths(accounts: AccountParams[]): void {
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    const key = `${a.curve}|${inputAt(`[${i}]`, () => normalizePath(a.path))}|${a.addressFormat}`;
    if (seen.has(key)) throw documentedInputError("INVALID_PATH", `${a.path} is used twice for ${a.addressFormat} in this request`, `[${i}].path`);
    seen.add(key);
  });
}
