/**
 * Ed25519 public keys through OpenSSL (node:crypto): no table to build at first use, unlike
 * @noble/curves (~75-90 ms for its first ed25519 key), and about as cheap per key after that.
 */
import { createPrivateKey } from "node:crypto";

// PKCS#8 wrapping of a raw 32-byte Ed25519 seed (RFC 8410): SEQUENCE { 0, { 1.3.101.112 }, OCTET STRING { OCTET STRING seed } }.
const PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");

/** The 32-byte public key of a 32-byte Ed25519 private key (seed), as RFC 8032 derives it. */
export function ed25519PublicKey(seed: Uint8Array): Uint8Array {
  if (seed.length !== 32) throw new Error(`an ed25519 private key is 32 bytes, got ${seed.length}`);
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" });
  return new Uint8Array(Buffer.from(key.export({ format: "jwk" }).x!, "base64url"));
}
