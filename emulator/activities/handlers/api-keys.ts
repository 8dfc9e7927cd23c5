/** API keys: create_api_keys (V2) and delete_api_keys. */
import { invalidArgument, notFound, resourceExhausted } from "../../errors.js";
import { newId } from "../../ids.js";
import { publicKeyObject, type KeyCurve } from "../../auth/public-keys.js";
import { requireDistinct, requireUser, checkName } from "../lookups.js";
import type { ActivityContext } from "../types.js";
import { defineActivity } from "../../operations/define.js";

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

/** Per-user limits of the real service: long-lived and expiring keys are counted apart. */
export const MAX_LONG_LIVED_KEYS_PER_USER = 10;
export const MAX_EXPIRING_KEYS_PER_USER = 10;

export type ApiKeyParams = { apiKeyName: string; publicKey: string; curveType: string; expirationSeconds?: string };

/** Validates and stores API keys for one user; returns their ids. Shared by users and sub-orgs. */
export function addApiKeys(ctx: ActivityContext, orgId: string, userId: string, keys: ApiKeyParams[], field: string, credentialType?: string): string[] {
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
    let expiresAt: number | null = null;
    if (k.expirationSeconds !== undefined) {
      if (!/^\d+$/.test(k.expirationSeconds) || Number(k.expirationSeconds) <= 0) {
        throw invalidArgument("expirationSeconds must be a positive whole number of seconds", `${f}.expirationSeconds`);
      }
      expiresAt = ctx.now + Number(k.expirationSeconds) * 1000;
    }
    const existing = store.apiKeys.forUser(userId);
    if (existing.some((e) => e.publicKey === publicKey)) {
      throw invalidArgument(`api key with public key ${publicKey} already exists for this user`, `${f}.publicKey`);
    }
    if (expiresAt === null) {
      if (existing.filter((e) => e.expiresAt === null).length >= MAX_LONG_LIVED_KEYS_PER_USER) {
        throw resourceExhausted(`user has exceeded maximum long-lived api keys (${MAX_LONG_LIVED_KEYS_PER_USER})`);
      }
    } else {
      // At the expiring-key limit the service drops an expired key first, else the oldest one.
      const expiring = existing.filter((e) => e.expiresAt !== null);
      if (expiring.length >= MAX_EXPIRING_KEYS_PER_USER) {
        const victim = expiring.find((e) => e.expiresAt! <= ctx.now) ?? expiring[0]!;
        store.apiKeys.delete(victim.id);
      }
    }
    const id = newId();
    store.apiKeys.insert({
      id,
      orgId,
      userId,
      name: k.apiKeyName,
      publicKey,
      credentialType: credentialType ?? API_KEY_CREDENTIAL_TYPE[k.curveType]!,
      expirationSeconds: k.expirationSeconds ?? null,
      expiresAt,
      sessionProfileId: null,
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    return id;
  });
}

export const apiKeyOperations = [
  defineActivity("create_api_keys", {
    authorization: "own-credential",
    run(ctx, p) {
      requireUser(ctx.rt.store, ctx.org.id, p.userId, "parameters.userId");
      if (!p.apiKeys.length) throw invalidArgument("apiKeys must not be empty", "parameters.apiKeys");
      return { apiKeyIds: addApiKeys(ctx, ctx.org.id, p.userId, p.apiKeys, "parameters.apiKeys") };
    },
  }),

  defineActivity("delete_api_keys", {
    authorization: "own-credential",
    run(ctx, p) {
      const { store } = ctx.rt;
      requireUser(store, ctx.org.id, p.userId, "parameters.userId");
      if (!p.apiKeyIds.length) throw invalidArgument("apiKeyIds must not be empty", "parameters.apiKeyIds");
      requireDistinct(p.apiKeyIds, "parameters.apiKeyIds");
      for (const id of p.apiKeyIds) {
        const key = store.apiKeys.get(ctx.org.id, id);
        if (!key || key.userId !== p.userId) throw notFound(`api key not found for user ${p.userId}: ${id}`);
        store.apiKeys.delete(id);
      }
      return { apiKeyIds: p.apiKeyIds };
    },
  }),
];
