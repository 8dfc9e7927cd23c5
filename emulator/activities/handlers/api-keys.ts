/** API keys: create_api_keys (V2) and delete_api_keys. */
import { documentedError, invalidArgument, notFound } from "../../errors.js";
import { API_KEY_CREDENTIAL_TYPE, insertApiKey } from "../../domain/api-keys.js";
import { publicKeyObject, type KeyCurve } from "../../auth/public-keys.js";
import { requireDistinct, requireUser, checkName } from "../lookups.js";
import type { ActivityContext } from "../types.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

const KEY_CURVE: Record<string, KeyCurve> = {
  API_KEY_CURVE_P256: "p256",
  API_KEY_CURVE_SECP256K1: "secp256k1",
  API_KEY_CURVE_ED25519: "ed25519",
};

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
    if (k.expirationSeconds !== undefined && (!/^\d+$/.test(k.expirationSeconds) || Number(k.expirationSeconds) <= 0)) {
      throw documentedError("INVALID_API_KEY_EXPIRATION", `${f}.expirationSeconds must be a positive whole number of seconds`, `${f}.expirationSeconds`);
    }
    if (store.apiKeys.forUser(userId).some((e) => e.publicKey === publicKey)) {
      throw invalidArgument(`api key with public key ${publicKey} already exists for this user`, `${f}.publicKey`);
    }
    const credential = credentialType ?? API_KEY_CREDENTIAL_TYPE[k.curveType]!;
    const id = insertApiKey(store, { orgId, userId, name: k.apiKeyName, publicKey, credentialType: credential, expirationSeconds: k.expirationSeconds }, ctx.now);
    return id;
  });
}

export const apiKeyOperations = [
  defineActivity("create_api_keys", {
    policy: { resource: "CREDENTIAL", action: "CREATE", source: "documented", params: [["user_id", "userId"]] },
    arrayLimits: { apiKeys: ALLOWANCE.credentialsPerUser },
    authorization: "own-credential",
    run(ctx, p) {
      requireUser(ctx.rt.store, ctx.org.id, p.userId, "parameters.userId");
      if (!p.apiKeys.length) throw invalidArgument("apiKeys must not be empty", "parameters.apiKeys");
      return { apiKeyIds: addApiKeys(ctx, ctx.org.id, p.userId, p.apiKeys, "parameters.apiKeys") };
    },
  }),

  defineActivity("delete_api_keys", {
    policy: { resource: "CREDENTIAL", action: "DELETE", source: "documented", params: [["user_id", "userId"], ["api_key_ids", "apiKeyIds"]] },
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
