/**
 * NIST P-256 public keys through OpenSSL (node:crypto ECDH): no table to build at first use,
 * unlike @noble/curves (~100 ms for its first P-256 key), and cheaper per key.
 */
import { ECDH, createECDH } from "node:crypto";

/** Public key of a private scalar in [1, n-1]: compressed (33 bytes) or uncompressed (65 bytes, 04‖X‖Y). */
export function p256PublicKey(privateKey: Uint8Array, compressed = true): Uint8Array {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  return new Uint8Array(ecdh.getPublicKey(null, compressed ? "compressed" : "uncompressed"));
}

/** A SEC1 public key (33 or 65 bytes) on the curve, in the form asked for; null for bytes that are not a point (OpenSSL decodes and checks it). */
export function p256Point(publicKey: Uint8Array, compressed: boolean): Uint8Array | null {
  if (publicKey.length !== 33 && publicKey.length !== 65) return null;
  try {
    return new Uint8Array(ECDH.convertKey(publicKey, "prime256v1", undefined, undefined, compressed ? "compressed" : "uncompressed") as Buffer);
  } catch {
    return null;
  }
}
