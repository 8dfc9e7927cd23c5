/**
 * NIST P-256 public keys through OpenSSL (node:crypto ECDH): no table to build at first use,
 * unlike @noble/curves (~100 ms for its first P-256 key), and cheaper per key.
 */
import { opensslPoint, opensslPublicKey } from "./openssl.js";

/** Public key of a private scalar in [1, n-1]: compressed (33 bytes) or uncompressed (65 bytes, 04‖X‖Y). */
export function p256PublicKey(privateKey: Uint8Array, compressed = true): Uint8Array {
  const point = opensslPublicKey("prime256v1", privateKey, compressed);
  if (!point) throw new Error("invalid P-256 private key");
  return point;
}

/** A SEC1 public key (33 or 65 bytes) on the curve, in the form asked for; null for bytes that are not a point. */
export function p256Point(publicKey: Uint8Array, compressed: boolean): Uint8Array | null {
  return opensslPoint("prime256v1", publicKey, compressed);
}
