/**
 * OpenSSL's elliptic-curve arithmetic through node:crypto ECDH, shared by the secp256k1 and
 * P-256 modules: public keys of scalars and SEC1 point decoding, with nothing to load or build.
 */
import { ECDH, createECDH } from "node:crypto";
import { isSec1PublicKey } from "./sec1.js";

export type OpensslCurve = "secp256k1" | "prime256v1";

/** The public key of a private scalar, compressed (33 bytes) or uncompressed (65); null outside [1, n-1] (Node checks the range). */
export function opensslPublicKey(curve: OpensslCurve, privateKey: Uint8Array, compressed: boolean): Uint8Array | null {
  try {
    const ecdh = createECDH(curve);
    ecdh.setPrivateKey(privateKey);
    return new Uint8Array(ecdh.getPublicKey(null, compressed ? "compressed" : "uncompressed"));
  } catch {
    return null;
  }
}

/** A SEC1 public key (sec1.ts) decoded and checked to be on the curve, in the form asked for; null otherwise. */
export function opensslPoint(curve: OpensslCurve, publicKey: Uint8Array, compressed: boolean): Uint8Array | null {
  if (!isSec1PublicKey(publicKey)) return null;
  try {
    return new Uint8Array(ECDH.convertKey(publicKey, curve, undefined, undefined, compressed ? "compressed" : "uncompressed") as Buffer);
  } catch {
    return null;
  }
}
