/**
 * Wallet accounts from a seed: validation of the account parameters (curve, path, address
 * format), derivation, and the address in the requested format.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { addressFor, curvesFor, deriveKey, normalizePath, parsePath, type Curve } from "../chains/index.js";
import { invalidArgument } from "../errors.js";

export type AccountParams = { curve: string; pathFormat: string; path: string; addressFormat: string; name?: string };

export type DerivedAccount = { curve: Curve; path: string; pathKey: string; addressFormat: string; address: string; publicKey: string; name: string | null };

/** Checks one account's parameters without deriving (cheap, for up-front validation). */
export function checkAccountParams(a: AccountParams, field: string): void {
  if (a.pathFormat !== "PATH_FORMAT_BIP32") throw invalidArgument("invalid path format: only PATH_FORMAT_BIP32 is supported", `${field}.pathFormat`);
  const curves = curvesFor(a.addressFormat);
  if (!curves.includes(a.curve as Curve)) {
    throw invalidArgument(`invalid curve ${a.curve} for address format ${a.addressFormat}; supported: ${curves.join(", ")}`, `${field}.curve`);
  }
  parsePath(a.path, `${field}.path`);
}

export function deriveAccount(seed: Uint8Array, a: AccountParams, field: string): DerivedAccount {
  checkAccountParams(a, field);
  const curve = a.curve as Curve;
  const { publicKey } = deriveKey(seed, curve, a.path);
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

export function checkNoRepeatedPaths(accounts: AccountParams[], field: string): void {
  const seen = new Set<string>();
  accounts.forEach((a, i) => {
    const key = `${a.curve}|${normalizePath(a.path)}|${a.addressFormat}`;
    if (seen.has(key)) throw invalidArgument(`invalid path: ${a.path} is used twice for ${a.addressFormat} in this request`, `${field}[${i}].path`);
    seen.add(key);
  });
}
