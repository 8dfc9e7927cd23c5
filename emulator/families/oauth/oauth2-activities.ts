/**
 * OAuth2-only providers (X, Discord): credentials, and oauth2_authenticate, which trades an
 * authorization code for an id_token of the built-in issuer. The emulator plays the provider:
 * codes come from `POST /emulator/v1/oauth2/authorize` (oauth2-routes.ts), with PKCE (S256).
 */
import { createHash } from "node:crypto";
import { documentedError, invalidArgument, notFound, unimplemented } from "../../core/errors.js";
import type { DocumentedErrorKey } from "../../core/error-catalogue.js";
import { mintIdToken } from "./oidc-issuer.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import type { Oauth2CredentialRow } from "./oauth2-repository.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { OAUTH2_SUBJECT_PREFIX } from "./oauth2-providers.js";


function requireCredential(ctx: ActivityContext, id: string): Oauth2CredentialRow {
  if (!id) throw documentedError("OAUTH2_CREDENTIAL_ID_NOT_SET", undefined, "parameters.oauth2CredentialId");
  requireUuid(id, "parameters.oauth2CredentialId", "oauth2 credential");
  const c = ctx.rt.store.oauth2.get(ctx.org.id, id);
  if (!c) throw notFound(`oauth2 credential not found: ${id}`, "OAUTH2_CREDENTIAL_NOT_FOUND");
  return c;
}

/** An empty OAuth2 parameter: the documented "<wire_name> must be set" where the errors page lists it. */
function nonEmpty(value: string, what: DocumentedErrorKey | "encrypted_client_secret" | "nonce", field: string): void {
  if (value) return;
  throw what === "encrypted_client_secret" || what === "nonce" ? invalidArgument(`${what} must be set`, field) : documentedError(what, undefined, field);
}

export const pkceChallenge = (verifier: string): string => createHash("sha256").update(verifier).digest("base64url");

export const oauth2Operations = [
  defineActivity("create_oauth2_credential", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented" },
    run(ctx, p) {
      nonEmpty(p.clientId, "CLIENT_ID_NOT_SET", "parameters.clientId");
      nonEmpty(p.encryptedClientSecret, "encrypted_client_secret", "parameters.encryptedClientSecret");
      const id = ctx.rt.random.uuid();
      ctx.rt.store.oauth2.upsert({ id, orgId: ctx.org.id, ...p, createdAt: ctx.now, updatedAt: ctx.now });
      return { oauth2CredentialId: id };
    },
  }),

  defineActivity("update_oauth2_credential", {
    policy: { resource: "AUTH", action: "UPDATE", source: "documented" },
    run(ctx, p) {
      const cur = requireCredential(ctx, p.oauth2CredentialId);
      nonEmpty(p.clientId, "CLIENT_ID_NOT_SET", "parameters.clientId");
      ctx.rt.store.oauth2.upsert({ ...cur, provider: p.provider, clientId: p.clientId, encryptedClientSecret: p.encryptedClientSecret || cur.encryptedClientSecret, updatedAt: ctx.now });
      return { oauth2CredentialId: cur.id };
    },
  }),

  defineActivity("delete_oauth2_credential", {
    policy: { resource: "AUTH", action: "DELETE", source: "documented" },
    run(ctx, p) {
      ctx.rt.store.oauth2.delete(requireCredential(ctx, p.oauth2CredentialId).id);
      return { oauth2CredentialId: p.oauth2CredentialId };
    },
  }),

  defineActivity("oauth2_authenticate", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented" },
    proxyForwarded: true,
    run(ctx, p) {
      // Every parameter is checked for presence before the credential is looked up: "auth_code must be set" does not depend on the credential.
      if (!p.oauth2CredentialId) throw documentedError("OAUTH2_CREDENTIAL_ID_NOT_SET", undefined, "parameters.oauth2CredentialId");
      nonEmpty(p.authCode, "AUTH_CODE_NOT_SET", "parameters.authCode");
      nonEmpty(p.redirectUri, "REDIRECT_URI_NOT_SET", "parameters.redirectUri");
      nonEmpty(p.codeVerifier, "CODE_VERIFIER_NOT_SET", "parameters.codeVerifier");
      nonEmpty(p.nonce, "nonce", "parameters.nonce");
      const cred = requireCredential(ctx, p.oauth2CredentialId);
      if (p.bearerTokenTargetPublicKey) throw unimplemented("bearerTokenTargetPublicKey: the encrypted bearer token claim is not emulated yet");
      const code = ctx.rt.store.oauth2.code(p.authCode);
      if (!code || code.usedAt !== null || code.expiresAt <= ctx.now) throw invalidArgument("invalid, expired or already used authorization code", "parameters.authCode");
      if (code.provider !== cred.provider || code.clientId !== cred.clientId) throw invalidArgument("authorization code was issued to another client", "parameters.authCode");
      if (code.redirectUri !== p.redirectUri) throw invalidArgument("redirect_uri does not match the authorization request", "parameters.redirectUri");
      if (pkceChallenge(p.codeVerifier) !== code.codeChallenge) throw invalidArgument("code_verifier does not match the code challenge", "parameters.codeVerifier");
      ctx.rt.store.oauth2.useCode(code.code, ctx.now);
      const { idToken } = mintIdToken(ctx.rt, {
        sub: `${OAUTH2_SUBJECT_PREFIX[cred.provider] ?? "oauth2"}:${code.subject}`,
        aud: cred.clientId,
        nonce: p.nonce,
        ...(code.username ? { claims: { preferred_username: code.username } } : {}),
      });
      return { oidcToken: idToken };
    },
  }),
];
