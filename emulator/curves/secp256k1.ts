/**
 * secp256k1 through libsecp256k1 (tiny-secp256k1, WebAssembly), loaded on first use: public
 * keys for BIP-32 derivation and RFC 6979 recoverable signatures. libsecp256k1 carries its
 * generator tables compiled in, so the first key costs the module load (~25 ms) instead of the
 * ~100-200 ms table build of @noble/curves, and each key or signature is 3-4x cheaper.
 * Results are byte-identical to @noble/curves (deterministic, low-S; tested against it).
 *
 * Until something needs libsecp256k1 (a signature), the first public keys come from OpenSSL
 * instead (node:crypto, ~1 ms a key, nothing to load): seeding a fixture's few accounts then
 * costs ~15 ms where loading and warming the WebAssembly module took ~40. Past
 * OPENSSL_KEYS_FIRST keys (bulk wallet creation), libsecp256k1 is worth its load (~0.2 ms a key).
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { lazyModule } from "../core/lazy-module.js";
import { opensslPoint, opensslPublicKey } from "./openssl.js";
import { isSec1PublicKey } from "./sec1.js";

type Libsecp256k1 = {
  pointFromScalar(secretKey: Uint8Array, compressed?: boolean): Uint8Array | null;
  signRecoverable(hash: Uint8Array, secretKey: Uint8Array): { signature: Uint8Array; recoveryId: number };
  xOnlyPointAddTweak(p: Uint8Array, tweak: Uint8Array): { parity: 0 | 1; xOnlyPubkey: Uint8Array } | null;
  isPoint(p: Uint8Array): boolean;
  pointCompress(p: Uint8Array, compressed?: boolean): Uint8Array;
};

let libsecp256k1Loaded = false;
const libsecp256k1 = lazyModule<Libsecp256k1>("tiny-secp256k1", () => (libsecp256k1Loaded = true));

const OPENSSL_KEYS_FIRST = 64;
let opensslKeys = 0;
/** Whether this operation goes through OpenSSL: libsecp256k1 is not loaded yet and the first keys are not all spent. */
const openssl = (): boolean => !libsecp256k1Loaded && opensslKeys++ < OPENSSL_KEYS_FIRST;

/** Public key of a private scalar in [1, n-1]: compressed (33 bytes) or uncompressed (65 bytes). */
export function secp256k1PublicKey(privateKey: Uint8Array, compressed = true): Uint8Array {
  const point = privateKey.length === 32 && openssl() ? opensslPublicKey("secp256k1", privateKey, compressed) : libsecp256k1.pointFromScalar(privateKey, compressed);
  if (!point) throw new Error("invalid secp256k1 private key");
  return point;
}

/** A SEC1 public key (33 or 65 bytes) on the curve, in the form asked for; null for bytes that are not a point. */
export function secp256k1Point(publicKey: Uint8Array, compressed: boolean): Uint8Array | null {
  if (openssl()) return opensslPoint("secp256k1", publicKey, compressed);
  if (!isSec1PublicKey(publicKey) || !libsecp256k1.isPoint(publicKey)) return null;
  return libsecp256k1.pointCompress(publicKey, compressed);
}

/**
 * x(P + t*G) with t*G from OpenSSL and one affine addition by @noble/curves (an addition needs
 * none of noble's multiplication tables); null when P is not a point, t >= n or the sum is the
 * point at infinity. Exported for the tests.
 */
export function opensslXOnlyTweakAdd(xOnly: Uint8Array, tweak: Uint8Array): Uint8Array | null {
  let P;
  try {
    P = secp256k1.Point.fromBytes(Uint8Array.of(2, ...xOnly)); // lift_x: the even-y point
  } catch {
    return null;
  }
  if (tweak.every((b) => b === 0)) return xOnly.slice();
  const tG = opensslPublicKey("secp256k1", tweak, false);
  if (!tG) return null;
  const Q = P.add(secp256k1.Point.fromBytes(tG));
  return Q.is0() ? null : Q.toBytes(true).subarray(1);
}

/** x(P + t*G) for the x-only key P (its even-y point) and a tweak t < n: the BIP-341 output key. */
export function secp256k1XOnlyTweakAdd(xOnly: Uint8Array, tweak: Uint8Array): Uint8Array {
  const tweaked = xOnly.length === 32 && tweak.length === 32 && openssl() ? opensslXOnlyTweakAdd(xOnly, tweak) : libsecp256k1.xOnlyPointAddTweak(xOnly, tweak)?.xOnlyPubkey;
  if (!tweaked) throw new Error("invalid x-only key or tweak");
  return tweaked;
}

export function signRecoverableSecp256k1(digest: Uint8Array, privateKey: Uint8Array): { r: Uint8Array; s: Uint8Array; recovery: number } {
  const { signature, recoveryId } = libsecp256k1.signRecoverable(digest, privateKey);
  return { r: signature.subarray(0, 32), s: signature.subarray(32, 64), recovery: recoveryId };
}
