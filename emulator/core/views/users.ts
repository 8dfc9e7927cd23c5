/** Wire forms (v1User, v1ApiKey, tags) of stored rows. */
import { toTimestamp } from "../clock.js";
import type { Store } from "../store/index.js";
import type { UserRow } from "../store/users.js";
import type { ApiKeyRow } from "../store/api-keys.js";
import type { TagRow } from "../store/tags.js";
import type { AuthenticatorRow } from "../store/authenticators.js";
import type { Wire } from "../../../contracts/wire.js";
import type { OauthProviderRow } from "../store/oauth-providers.js";
import { renderMfaPolicy } from "./mfa-policies.js";

export function renderApiKey(k: ApiKeyRow): Wire["v1ApiKey"] {
  return {
    credential: { publicKey: k.publicKey, type: k.credentialType as Wire["v1CredentialType"], ...(k.sessionProfileId ? { sessionProfileId: k.sessionProfileId } : {}) },
    apiKeyId: k.id,
    apiKeyName: k.name,
    createdAt: toTimestamp(k.createdAt),
    updatedAt: toTimestamp(k.updatedAt),
    ...(k.expirationSeconds !== null ? { expirationSeconds: k.expirationSeconds } : {}),
  };
}

export function renderUser(store: Store, u: UserRow): Wire["v1User"] {
  return {
    userId: u.id,
    userName: u.name,
    ...(u.email !== null ? { userEmail: u.email } : {}),
    ...(u.phone !== null ? { userPhoneNumber: u.phone } : {}),
    authenticators: store.authenticators.forUser(u.id).map(renderAuthenticator),
    apiKeys: store.apiKeys.forUser(u.id).map(renderApiKey),
    userTags: store.tags.tagsOf(u.id),
    oauthProviders: store.oauthProviders.forUser(u.id).map(renderOauthProvider),
    createdAt: toTimestamp(u.createdAt),
    updatedAt: toTimestamp(u.updatedAt),
    mfaPolicies: store.mfaPolicies.forUser(u.id).map(renderMfaPolicy),
  };
}

export function renderTag(t: TagRow): Wire["datav1Tag"] {
  return { tagId: t.id, tagName: t.name, tagType: t.tagType, createdAt: toTimestamp(t.createdAt), updatedAt: toTimestamp(t.updatedAt) };
}

export function renderAuthenticator(a: AuthenticatorRow): Wire["v1Authenticator"] {
  return {
    transports: a.transports as Wire["v1AuthenticatorTransport"][],
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

export function renderOauthProvider(p: OauthProviderRow): Wire["v1OauthProvider"] {
  return {
    providerId: p.id,
    providerName: p.name,
    issuer: p.issuer,
    audience: p.audience,
    subject: p.subject,
    createdAt: toTimestamp(p.createdAt),
    updatedAt: toTimestamp(p.updatedAt),
  };
}
