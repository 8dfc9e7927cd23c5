/** Wire forms (v1User, v1ApiKey, tags) of stored rows. */
import { toTimestamp } from "../clock.js";
import type { Store } from "../store/index.js";
import type { UserRow } from "../store/users.js";
import type { ApiKeyRow } from "../store/api-keys.js";
import type { TagRow } from "../store/tags.js";
import type { AuthenticatorRow } from "../store/authenticators.js";

export function renderApiKey(k: ApiKeyRow): Record<string, unknown> {
  return {
    credential: { publicKey: k.publicKey, type: k.credentialType, ...(k.sessionProfileId ? { sessionProfileId: k.sessionProfileId } : {}) },
    apiKeyId: k.id,
    apiKeyName: k.name,
    createdAt: toTimestamp(k.createdAt),
    updatedAt: toTimestamp(k.updatedAt),
    ...(k.expirationSeconds !== null ? { expirationSeconds: k.expirationSeconds } : {}),
  };
}

export function renderUser(store: Store, u: UserRow): Record<string, unknown> {
  return {
    userId: u.id,
    userName: u.name,
    ...(u.email !== null ? { userEmail: u.email } : {}),
    ...(u.phone !== null ? { userPhoneNumber: u.phone } : {}),
    authenticators: store.authenticators.forUser(u.id).map(renderAuthenticator),
    apiKeys: store.apiKeys.forUser(u.id).map(renderApiKey),
    userTags: store.tags.tagsOf(u.id),
    oauthProviders: [],
    createdAt: toTimestamp(u.createdAt),
    updatedAt: toTimestamp(u.updatedAt),
    mfaPolicies: [],
  };
}

export function renderTag(t: TagRow): Record<string, unknown> {
  return { tagId: t.id, tagName: t.name, tagType: t.tagType, createdAt: toTimestamp(t.createdAt), updatedAt: toTimestamp(t.updatedAt) };
}

export function renderAuthenticator(a: AuthenticatorRow): Record<string, unknown> {
  return {
    transports: a.transports,
    attestationType: a.attestationType,
    aaguid: a.aaguid,
    credentialId: a.credentialId,
    model: "",
    credential: { publicKey: a.publicKey, type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" },
    authenticatorId: a.id,
    authenticatorName: a.name,
    createdAt: toTimestamp(a.createdAt),
    updatedAt: toTimestamp(a.updatedAt),
  };
}
