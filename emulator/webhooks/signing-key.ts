/**
 * The webhook signing key: one Ed25519 key per emulator state, made on first use and kept in
 * the database's meta table with its private half sealed (store/seal.ts), so it survives a
 * restart with --db and a reset, and travels with snapshots and exported states. Its public
 * half is served as a JWKS at GET /public/v1/discovery/webhooks/jwks.
 *
 * Signature (v1): Ed25519 over the bytes `v1.ed25519.<key_id>.<timestamp_ms>.<event_id>.<raw_body>`,
 * sent hex-encoded in X-Turnkey-Signature.
 */
import { createHash, createPrivateKey, sign, type KeyObject } from "node:crypto";
import { ed25519PublicKey } from "../curves/ed25519.js";
import { osRandom, type RandomBytes } from "../random.js";
import { getMeta, setMeta } from "../store/db.js";
import type { Store } from "../store/index.js";

const META_KEY = "webhook_signing_key";

type StoredKey = { kid: string; x: string; dSealed: string };
export type SigningKey = { kid: string; x: string; privateKey: KeyObject };

const loaded = new WeakMap<Store, SigningKey>();

/** This state's signing key (created from `random` and stored on first use). */
export function signingKeyOf(store: Store, random: RandomBytes = osRandom): SigningKey {
  const cached = loaded.get(store);
  if (cached) return cached;
  const raw = getMeta(store.db, META_KEY);
  let stored: StoredKey;
  if (raw) stored = JSON.parse(raw) as StoredKey;
  else {
    const secret = random.bytes(32);
    const x = Buffer.from(ed25519PublicKey(secret)).toString("base64url");
    const kid = `emulator-webhook-${createHash("sha256").update(Buffer.from(x, "base64url")).digest("hex").slice(0, 16)}`;
    stored = { kid, x, dSealed: store.sealer.seal(secret) };
    setMeta(store.db, META_KEY, JSON.stringify(stored));
  }
  const d = Buffer.from(store.sealer.open(stored.dSealed)).toString("base64url");
  const key: SigningKey = { kid: stored.kid, x: stored.x, privateKey: createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", x: stored.x, d }, format: "jwk" }) };
  loaded.set(store, key);
  return key;
}

/** The v1 signed input. */
export function signedInput(kid: string, timestampMs: string, eventId: string, body: string): Buffer {
  return Buffer.concat([Buffer.from(`v1.ed25519.${kid}.${timestampMs}.${eventId}.`, "utf8"), Buffer.from(body, "utf8")]);
}

/** The X-Turnkey-Signature value: hex Ed25519 signature (64 bytes). */
export function signDelivery(key: SigningKey, timestampMs: string, eventId: string, body: string): string {
  return sign(null, signedInput(key.kid, timestampMs, eventId, body), key.privateKey).toString("hex");
}

/** The JWKS document served to receivers. */
export function jwksOf(key: SigningKey): { keys: Record<string, string>[] } {
  return {
    keys: [{ kid: key.kid, kty: "OKP", crv: "Ed25519", alg: "EdDSA", use: "sig", x: key.x, turnkey_signature_algorithm: "ed25519", turnkey_signature_version: "v1" }],
  };
}
