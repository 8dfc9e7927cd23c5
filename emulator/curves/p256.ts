/**
 * NIST P-256 public keys through OpenSSL (node:crypto ECDH): no table to build at first use,
 * unlike @noble/curves (~100 ms for its first P-256 key), and cheaper per key.
 */
import { createECDH, randomBytes } from "node:crypto";

// n of P-256 (FIPS 186-4 D.1.2.3).
const N = 0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551n;

/** Public key of a private scalar in [1, n-1]: compressed (33 bytes) or uncompressed (65 bytes, 04‖X‖Y). */
export function p256PublicKey(privateKey: Uint8Array, compressed = true): Uint8Array {
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(privateKey);
  return new Uint8Array(ecdh.getPublicKey(null, compressed ? "compressed" : "uncompressed"));
}

/** A fresh private scalar, uniformly in [1, n-1] (rejection sampling). */
export function p256RandomPrivateKey(): Uint8Array {
  for (;;) {
    const candidate = randomBytes(32);
    const k = BigInt(`0x${candidate.toString("hex")}`);
    if (k !== 0n && k < N) return new Uint8Array(candidate);
  }
}
