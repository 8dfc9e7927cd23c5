/** Public-key parsing shared by the address encoders. */
import { ed25519 } from "@noble/curves/ed25519.js";
import { weierstrassPoint } from "../../curves/index.js";
import { InputError } from "../../core/input-error.js";
import type { Curve } from "../keys/curve.js";

export interface WeierstrassKey {
  /** 33-byte SEC1 compressed point. */
  compressed: Uint8Array;
  /** 65-byte SEC1 uncompressed point 04||X||Y. */
  uncompressed: Uint8Array;
}

/**
 * Validates a secp256k1 / P-256 public key (33 or 65 bytes) and returns both SEC1 forms
 * (libsecp256k1 and OpenSSL decode the point: no @noble/curves BigInt arithmetic per address).
 */
export function weierstrassKey(curve: "CURVE_SECP256K1" | "CURVE_P256", publicKey: Uint8Array): WeierstrassKey {
  if (publicKey.length !== 33 && publicKey.length !== 65) {
    throw new InputError(`invalid ${curve} public key: expected 33 or 65 bytes, got ${publicKey.length}`, "publicKey");
  }
  // One decode: it checks the point and gives the other form; the given form is kept as it came.
  const other = weierstrassPoint(curve, publicKey, publicKey.length === 65);
  if (!other) throw new InputError(`invalid ${curve} public key: not a point on the curve`, "publicKey");
  return publicKey.length === 65 ? { compressed: other, uncompressed: publicKey.slice() } : { compressed: publicKey.slice(), uncompressed: other };
}

/** Validates a 32-byte ed25519 public key. */
export function ed25519Key(publicKey: Uint8Array): Uint8Array {
  if (publicKey.length !== 32) {
    throw new InputError(`invalid CURVE_ED25519 public key: expected 32 bytes, got ${publicKey.length}`, "publicKey");
  }
  try {
    ed25519.Point.fromBytes(publicKey);
  } catch {
    throw new InputError("invalid CURVE_ED25519 public key: not a point on the curve", "publicKey");
  }
  return publicKey;
}

/** Compressed secp256k1 key (33 bytes) from a 33- or 65-byte input. */
export function secp256k1Compressed(publicKey: Uint8Array): Uint8Array {
  return weierstrassKey("CURVE_SECP256K1", publicKey).compressed;
}

export function isWeierstrass(curve: Curve): curve is "CURVE_SECP256K1" | "CURVE_P256" {
  return curve === "CURVE_SECP256K1" || curve === "CURVE_P256";
}
