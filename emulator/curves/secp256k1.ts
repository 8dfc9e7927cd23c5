/**
 * secp256k1 through libsecp256k1 (tiny-secp256k1, WebAssembly), loaded on first use: public
 * keys for BIP-32 derivation and RFC 6979 recoverable signatures. libsecp256k1 carries its
 * generator tables compiled in, so the first key costs the module load (~25 ms) instead of the
 * ~100-200 ms table build of @noble/curves, and each key or signature is 3-4x cheaper.
 * Results are byte-identical to @noble/curves (deterministic, low-S; tested against it).
 */
import { lazyModule } from "../lazy-module.js";

type Libsecp256k1 = {
  pointFromScalar(secretKey: Uint8Array, compressed?: boolean): Uint8Array | null;
  signRecoverable(hash: Uint8Array, secretKey: Uint8Array): { signature: Uint8Array; recoveryId: number };
  xOnlyPointAddTweak(p: Uint8Array, tweak: Uint8Array): { parity: 0 | 1; xOnlyPubkey: Uint8Array } | null;
  isPoint(p: Uint8Array): boolean;
  pointCompress(p: Uint8Array, compressed?: boolean): Uint8Array;
};

const libsecp256k1 = lazyModule<Libsecp256k1>("tiny-secp256k1");

/** Public key of a private scalar in [1, n-1]: compressed (33 bytes) or uncompressed (65 bytes). */
export function secp256k1PublicKey(privateKey: Uint8Array, compressed = true): Uint8Array {
  const point = libsecp256k1.pointFromScalar(privateKey, compressed);
  if (!point) throw new Error("invalid secp256k1 private key");
  return point;
}

/** A SEC1 public key (33 or 65 bytes) on the curve, in the form asked for; null for bytes that are not a point. */
export function secp256k1Point(publicKey: Uint8Array, compressed: boolean): Uint8Array | null {
  if (!libsecp256k1.isPoint(publicKey)) return null;
  return libsecp256k1.pointCompress(publicKey, compressed);
}

/** x(P + t*G) for the x-only key P (its even-y point) and a tweak t < n: the BIP-341 output key. */
export function secp256k1XOnlyTweakAdd(xOnly: Uint8Array, tweak: Uint8Array): Uint8Array {
  const tweaked = libsecp256k1.xOnlyPointAddTweak(xOnly, tweak);
  if (!tweaked) throw new Error("invalid x-only key or tweak");
  return tweaked.xOnlyPubkey;
}

export function signRecoverableSecp256k1(digest: Uint8Array, privateKey: Uint8Array): { r: Uint8Array; s: Uint8Array; recovery: number } {
  const { signature, recoveryId } = libsecp256k1.signRecoverable(digest, privateKey);
  return { r: signature.subarray(0, 32), s: signature.subarray(32, 64), recovery: recoveryId };
}
