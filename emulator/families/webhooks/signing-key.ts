/**
 * The webhook signing key: one Ed25519 key per emulator state, made on first use and kept in
 * the database's meta table with its private half sealed (core/store/seal.ts), so it survives a
 * restart with --db and a reset, and travels with snapshots and exported states. Its public
 * half is served as a JWKS at GET /public/v1/discovery/webhooks/jwks.
 *
 * Signature (v1): Ed25519 over the bytes `v1.ed25519.<key_id>.<timestamp_ms>.<event_id>.<raw_body>`,
 * sent hex-encoded in X-Turnkey-Signature.
 *
 * The opened key is held by its instance (`SigningKeys`, in `rt.families.webhooks`), never in
 * module state: it goes with the instance, and another instance in the process never sees it.
 */
import { createHash, createPrivateKey, sign, type KeyObject } from "node:crypto";
import { getMeta, setMeta } from "../../core/store/db.js";
import type { Store } from "../../core/store/index.js";
import type { Runtime } from "../../core/runtime.js";
import { ed25519PublicKey } from "../../curves/ed25519.js";
import { osRandom, type RandomBytes } from "../../core/random.js";

const META_KEY = "webhook_signing_key";

type StoredKey = { kid: string; x: string; dSealed: string };
export type SigningKey = { kid: string; x: string; privateKey: KeyObject };

/** This state's signing key, read from the database and opened (created from `random` and stored on first use). */
export function loadSigningKey(store: Store, random: RandomBytes = osRandom): SigningKey {
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
  return { kid: stored.kid, x: stored.x, privateKey: createPrivateKey({ key: { kty: "OKP", crv: "Ed25519", x: stored.x, d }, format: "jwk" }) };
}

/** The signing key of the instance's current state (made with the webhooks when they start; a loaded state brings its own). */
export function signingKeyOf(rt: Runtime): SigningKey {
  return (rt.families.webhooks?.signingKeys ?? new SigningKeys()).of(rt.store);
}

/** An instance's signing key, opened once per state it uses (a loaded state or snapshot brings its own). */
export class SigningKeys {
  private held: { store: Store; key: SigningKey } | undefined;

  of(store: Store, random?: RandomBytes): SigningKey {
    if (this.held?.store !== store) this.held = { store, key: loadSigningKey(store, random) };
    return this.held.key;
  }

  /** Drops the opened key (the instance stops). */
  clear(): void {
    this.held = undefined;
  }
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
