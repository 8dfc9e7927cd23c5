/**
 * P-256 key pairs and the signature encodings the bundle formats use:
 * DER hex (enclave bundle signatures) and raw r‖s (client signatures, app proofs, JWTs).
 * Every signature here is ECDSA over SHA-256 of the given bytes unless `prehashed` says otherwise.
 */
import { hkdfSync } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { p256Point, p256PublicKey } from "../curves/p256.js";
import { InputError } from "../core/input-error.js";
import { osRandom, type RandomBytes } from "../core/random.js";

export type P256KeyPair = {
  /** 32-byte secret scalar. */
  privateKey: Uint8Array;
  /** 65-byte uncompressed SEC1 point (04‖X‖Y). */
  publicKey: Uint8Array;
};

/** A fresh key pair drawn from `random` (an instance's `rt.random`; the system's generator by default). */
export function generateP256KeyPair(random: RandomBytes = osRandom): P256KeyPair {
  return p256KeyPairFromPrivate(p256.utils.randomSecretKey(random.bytes(p256.lengths.seed!)));
}

export function p256KeyPairFromPrivate(privateKey: Uint8Array | string): P256KeyPair {
  const sk = typeof privateKey === "string" ? decodeHex(privateKey, "privateKey") : privateKey;
  if (sk.length !== 32 || !p256.utils.isValidSecretKey(sk)) throw new InputError("invalid P-256 private key", "privateKey");
  // OpenSSL computes the point (emulator/curves/p256.ts): noble's first P-256 multiplication builds its tables.
  return { privateKey: Uint8Array.from(sk), publicKey: p256PublicKey(sk, false) };
}

/**
 * A deterministic key pair: the scalar is HKDF-SHA256(ikm, salt, info) -> 48 bytes reduced into
 * [1, n-1] (FIPS 186-5 A.4.1, @noble/curves' mapHashToField). HKDF runs in OpenSSL (node:crypto).
 */
export function derivedP256KeyPair(ikm: Uint8Array, salt: string | Uint8Array, info: string): P256KeyPair {
  return p256KeyPairFromPrivate(p256.utils.randomSecretKey(new Uint8Array(hkdfSync("sha256", ikm, salt, info, 48))));
}

/** A compressed (33) or uncompressed (65) SEC1 P-256 point in the form asked for (OpenSSL decodes it); throws on anything else. */
function p256PointAs(key: Uint8Array | string, field: string, compressed: boolean): Uint8Array {
  const point = p256Point(typeof key === "string" ? decodeHex(key, field) : key, compressed);
  if (!point) throw new InputError(`invalid P-256 public key in ${field}`, field);
  return point;
}

/** Parses a compressed (33) or uncompressed (65) SEC1 P-256 point into its uncompressed form; throws on anything else. */
export function parseP256PublicKey(key: Uint8Array | string, field = "publicKey"): Uint8Array {
  return p256PointAs(key, field, false);
}

export const uncompressedP256 = (key: Uint8Array | string, field?: string): Uint8Array => parseP256PublicKey(key, field);

export function compressedP256(key: Uint8Array | string, field = "publicKey"): Uint8Array {
  return p256PointAs(key, field, true);
}

export const uncompressedP256Hex = (key: Uint8Array | string): string => bytesToHex(uncompressedP256(key));
export const compressedP256Hex = (key: Uint8Array | string): string => bytesToHex(compressedP256(key));

/** ECDSA-P256 over SHA-256(message); DER, lowercase hex. */
export function signDerHex(message: Uint8Array, privateKey: Uint8Array): string {
  return bytesToHex(p256.sign(message, privateKey, { format: "der" }));
}

/** ECDSA-P256 over SHA-256(message) (or over `message` itself when prehashed); raw r‖s, 64 bytes. */
export function signRaw(message: Uint8Array, privateKey: Uint8Array, prehashed = false): Uint8Array {
  return p256.sign(prehashed ? message : sha256(message), privateKey, { prehash: false });
}

/**
 * Verifies a raw r‖s ECDSA-P256 signature over SHA-256(message) (or over `message` when prehashed).
 * High-S signatures are accepted: WebCrypto and Node do not normalise S.
 */
export function verifyRaw(signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array, prehashed = false): boolean {
  if (signature.length !== 64) return false;
  try {
    return p256.verify(signature, prehashed ? message : sha256(message), publicKey, { prehash: false, lowS: false });
  } catch {
    return false;
  }
}

/** Decodes hex (optional 0x prefix) or throws an InputError at `field` (which the message names too). */
export function decodeHex(hex: string, field: string): Uint8Array {
  const h = hex.startsWith("0x") || hex.startsWith("0X") ? hex.slice(2) : hex;
  if (h.length % 2 !== 0 || !/^[0-9a-fA-F]*$/.test(h)) throw new InputError(`${field} is not valid hex`, field);
  return hexToBytes(h);
}
