/**
 * BIP-341 key-path tweak with an empty script tree (the BIP-86 construction):
 * Q = P + int(hashTapTweak(x(P)))·G, and the matching secret key.
 */
import { schnorr, secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToNumberBE, numberToBytesBE } from "@noble/curves/utils.js";
import { taggedHash } from "../derivation/address/hash.js";

const Point = secp256k1.Point;
const N = Point.Fn.ORDER;

export type TweakedKey = { secretKey: Uint8Array; outputKeyXOnly: Uint8Array };

export function tweakKeyPathKey(secretKey: Uint8Array): TweakedKey {
  let d = bytesToNumberBE(secretKey);
  const P = Point.BASE.multiply(d);
  // BIP-340 keys are x-only: use the secret whose point has even y.
  if (P.toAffine().y % 2n === 1n) d = N - d;
  const internalXOnly = schnorr.getPublicKey(secretKey);
  const t = bytesToNumberBE(taggedHash("TapTweak", internalXOnly));
  if (t >= N) throw new Error("taproot tweak out of range");
  const tweaked = (d + t) % N;
  if (tweaked === 0n) throw new Error("taproot tweak produced the zero key");
  const tweakedSecret = numberToBytesBE(tweaked, 32);
  return { secretKey: tweakedSecret, outputKeyXOnly: schnorr.getPublicKey(tweakedSecret) };
}

/** BIP-340 signature with all-zero auxiliary randomness, so equal requests give equal signatures. */
export function schnorrSign(digest: Uint8Array, secretKey: Uint8Array): Uint8Array {
  return schnorr.sign(digest, secretKey, new Uint8Array(32));
}
