/**
 * node:crypto KeyObjects for raw public keys, cached: stamp verification runs on every
 * request and OpenSSL is far faster than pure JS for P-256.
 */
import { createPublicKey, type KeyObject } from "node:crypto";
import { Lru } from "../lib/lru.js";

export type KeyCurve = "p256" | "secp256k1" | "ed25519";

// SubjectPublicKeyInfo DER prefixes for a raw point of each curve.
const SPKI_PREFIX: Record<string, string> = {
  "p256:33": "3039301306072a8648ce3d020106082a8648ce3d030107032200",
  "p256:65": "3059301306072a8648ce3d020106082a8648ce3d030107034200",
  "secp256k1:33": "3036301006072a8648ce3d020106052b8104000a032200",
  "secp256k1:65": "3056301006072a8648ce3d020106052b8104000a034200",
  "ed25519:32": "302a300506032b6570032100",
};

const cache = new Lru<string, KeyObject>(4096);

/** Returns null when the bytes are not a valid point of the curve. */
export function publicKeyObject(curve: KeyCurve, publicKeyHex: string): KeyObject | null {
  const id = `${curve}:${publicKeyHex}`;
  const hit = cache.get(id);
  if (hit) return hit;
  if (!/^[0-9a-fA-F]*$/.test(publicKeyHex) || publicKeyHex.length % 2) return null;
  const prefix = SPKI_PREFIX[`${curve}:${publicKeyHex.length / 2}`];
  if (!prefix) return null;
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(prefix + publicKeyHex, "hex"), format: "der", type: "spki" });
  } catch {
    return null;
  }
  cache.set(id, key);
  return key;
}
