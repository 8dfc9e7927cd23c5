/**
 * Public keys of private keys on the three curves the service uses, without @noble/curves'
 * table builds (see each curve's file): ed25519 raw 32 bytes; secp256k1 and P-256 compressed
 * (33 bytes) by default, uncompressed (65 bytes) on request.
 */
import type { Curve } from "../derivation/keys/curve.js";
import { ed25519PublicKey } from "./ed25519.js";
import { p256Point, p256PublicKey } from "./p256.js";
import { secp256k1Point, secp256k1PublicKey } from "./secp256k1.js";

export function publicKeyOf(curve: Curve, privateKey: Uint8Array, compressed = true): Uint8Array {
  if (curve === "CURVE_ED25519") return ed25519PublicKey(privateKey);
  return curve === "CURVE_SECP256K1" ? secp256k1PublicKey(privateKey, compressed) : p256PublicKey(privateKey, compressed);
}

/** A secp256k1 or P-256 public key (SEC1, 33 or 65 bytes) in the form asked for, or null when the bytes are not a point on the curve. */
export function weierstrassPoint(curve: "CURVE_SECP256K1" | "CURVE_P256", publicKey: Uint8Array, compressed: boolean): Uint8Array | null {
  return curve === "CURVE_SECP256K1" ? secp256k1Point(publicKey, compressed) : p256Point(publicKey, compressed);
}

/** The compressed form (33 bytes) of an uncompressed SEC1 point (65 bytes): x with the parity of y, no curve arithmetic. */
export function compressPoint(uncompressed: Uint8Array): Uint8Array {
  if (uncompressed.length !== 65 || uncompressed[0] !== 4) throw new Error("expected a 65-byte uncompressed SEC1 point");
  return Uint8Array.of(2 | (uncompressed[64]! & 1), ...uncompressed.subarray(1, 33));
}
