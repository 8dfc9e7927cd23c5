/** Private keys: how a raw key's public halves are derived and stored (used by handlers, import and fixtures). */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { p256 } from "@noble/curves/nist.js";
import { ed25519 } from "@noble/curves/ed25519.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Curve } from "../chains/index.js";
import { compressPoint, publicKeyOf } from "../curves/index.js";

/** The stored public key: uncompressed SEC1 for the ECDSA curves, raw 32 bytes for ed25519. */
export function publicKeysOf(curve: Curve, privateKey: Uint8Array): { compressed: Uint8Array; stored: string } {
  if (curve === "CURVE_ED25519") {
    const key = publicKeyOf(curve, privateKey);
    return { compressed: key, stored: bytesToHex(key) };
  }
  const uncompressed = publicKeyOf(curve, privateKey, false); // one multiplication for both forms
  return { compressed: compressPoint(uncompressed), stored: bytesToHex(uncompressed) };
}

export function randomPrivateKey(curve: Curve): Uint8Array {
  if (curve === "CURVE_ED25519") return ed25519.utils.randomSecretKey();
  return (curve === "CURVE_SECP256K1" ? secp256k1 : p256).utils.randomSecretKey();
}
