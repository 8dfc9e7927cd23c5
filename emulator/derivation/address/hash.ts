/** Hash helpers used by several chains (OpenSSL through node:crypto: native from the first call, where pure-JS hashes run cold at start-up). */
import { createHash } from "node:crypto";
import { concatBytes } from "@noble/hashes/utils.js";

const digest = (algorithm: string, data: Uint8Array): Uint8Array => new Uint8Array(createHash(algorithm).update(data).digest());

/** SHA256(x). */
export const sha256 = (data: Uint8Array): Uint8Array => digest("sha256", data);

/** RIPEMD160(SHA256(x)): Bitcoin's HASH160. */
export const hash160 = (data: Uint8Array): Uint8Array => digest("ripemd160", digest("sha256", data));

/** SHA256(SHA256(x)). */
export const sha256d = (data: Uint8Array): Uint8Array => digest("sha256", digest("sha256", data));

/** payload || first 4 bytes of SHA256d(payload): the Base58Check body before alphabet encoding. */
export const withChecksum = (payload: Uint8Array): Uint8Array => concatBytes(payload, sha256d(payload).subarray(0, 4));

/** BIP-340 tagged hash: SHA256(SHA256(tag) || SHA256(tag) || message). */
export function taggedHash(tag: string, message: Uint8Array): Uint8Array {
  const tagHash = createHash("sha256").update(tag).digest();
  return new Uint8Array(createHash("sha256").update(tagHash).update(tagHash).update(message).digest());
}
