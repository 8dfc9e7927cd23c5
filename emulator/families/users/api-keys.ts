/**
 * API keys: the one place a key row is written (create_api_keys, users and sub-orgs with
 * keys, session and login keys, the auth proxy's key, fixtures), with the service's per-user
 * limits: long-lived and expiring keys are counted apart, and at the expiring-key limit the
 * service drops an expired key first, else the oldest one. `addApiKeys` checks the keys a
 * request gives before they are written.
 */
import { documentedError, invalidArgument } from "../../core/errors.js";
import type { Store } from "../../core/store/index.js";
import { publicKeyObject, type KeyCurve } from "../../core/auth/public-keys.js";
import { checkName, requireDistinct } from "../../core/vocabulary/lookups.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";

export const API_KEY_CREDENTIAL_TYPE: Record<string, string> = {
  API_KEY_CURVE_P256: "CREDENTIAL_TYPE_API_KEY_P256",
  API_KEY_CURVE_SECP256K1: "CREDENTIAL_TYPE_API_KEY_SECP256K1",
  API_KEY_CURVE_ED25519: "CREDENTIAL_TYPE_API_KEY_ED25519",
};

const KEY_CURVE: Record<string, KeyCurve> = {
  API_KEY_CURVE_P256: "p256",
  API_KEY_CURVE_SECP256K1: "secp256k1",
  API_KEY_CURVE_ED25519: "ed25519",
};

export const MAX_LONG_LIVED_KEYS_PER_USER = 10;
export const MAX_EXPIRING_KEYS_PER_USER = 10;

export type NewApiKey = {
  /** A new id (`rt.random.uuid()`) or the fixture's. */
  id: string;
  orgId: string;
  userId: string;
  name: string;
  publicKey: string;
  credentialType: string;
  /** Lifetime in seconds (a decimal string, as on the wire); absent for a long-lived key. */
  expirationSeconds?: string | null;
  /** The session profile a login key was issued under. */
  sessionProfileId?: string | null;
};

/** Writes a key within the user's limits; returns its id. */
export function insertApiKey(store: Store, k: NewApiKey, now: number): string {
  const existing = store.apiKeys.forUser(k.userId);
  const expiring = k.expirationSeconds !== undefined && k.expirationSeconds !== null;
  if (!expiring) {
    if (existing.filter((e) => e.expiresAt === null).length >= MAX_LONG_LIVED_KEYS_PER_USER) {
      throw documentedError("MAX_LONG_LIVED_API_KEYS", `at most ${MAX_LONG_LIVED_KEYS_PER_USER} per user`);
    }
  } else {
    const withExpiry = existing.filter((e) => e.expiresAt !== null);
    if (withExpiry.length >= MAX_EXPIRING_KEYS_PER_USER) {
      const victim = withExpiry.find((e) => e.expiresAt! <= now) ?? withExpiry[0]!;
      store.apiKeys.delete(victim.id);
    }
  }
  const id = k.id;
  store.apiKeys.insert({
    id,
    orgId: k.orgId,
    userId: k.userId,
    name: k.name,
    publicKey: k.publicKey,
    credentialType: k.credentialType,
    expirationSeconds: expiring ? k.expirationSeconds! : null,
    expiresAt: expiring ? now + Number(k.expirationSeconds) * 1000 : null,
    sessionProfileId: k.sessionProfileId ?? null,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

export type ApiKeyParams = { apiKeyName: string; publicKey: string; curveType: string; expirationSeconds?: string };

/** Validates and stores API keys for one user; returns their ids. Shared by users and sub-orgs. */
export function addApiKeys(ctx: DomainContext, orgId: string, userId: string, keys: ApiKeyParams[], field: string): string[] {
  const { store } = ctx.rt;
  requireDistinct(keys.map((k) => k.publicKey.toLowerCase()), `${field}.publicKey`);
  return keys.map((k, i) => {
    const f = `${field}[${i}]`;
    checkName(k.apiKeyName, `${f}.apiKeyName`);
    const publicKey = k.publicKey.toLowerCase();
    const curve = KEY_CURVE[k.curveType]!;
    if (!publicKeyObject(curve, publicKey)) {
      throw invalidArgument(`invalid public key for ${k.curveType}: ${k.publicKey}`, `${f}.publicKey`);
    }
    if (curve !== "ed25519" && publicKey.length !== 66) {
      throw invalidArgument(`public key for ${k.curveType} must be a compressed point (33 bytes, hex)`, `${f}.publicKey`);
    }
    if (k.expirationSeconds !== undefined && (!/^\d+$/.test(k.expirationSeconds) || Number(k.expirationSeconds) <= 0)) {
      throw documentedError("INVALID_API_KEY_EXPIRATION", `${f}.expirationSeconds must be a positive whole number of seconds`, `${f}.expirationSeconds`);
    }
    if (store.apiKeys.forUser(userId).some((e) => e.publicKey === publicKey)) {
      throw invalidArgument(`api key with public key ${publicKey} already exists for this user`, `${f}.publicKey`);
    }
    const credentialType = API_KEY_CREDENTIAL_TYPE[k.curveType]!;
    return insertApiKey(store, { id: ctx.rt.random.uuid(), orgId, userId, name: k.apiKeyName, publicKey, credentialType, expirationSeconds: k.expirationSeconds }, ctx.now);
  });
}
