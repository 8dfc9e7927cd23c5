/**
 * OAuth: create_oauth_providers (V2), delete_oauth_providers (the domain's credentials,
 * families/users/credentials.ts), oauth_login and the legacy oauth (credential bundle), which log in
 * as the user whose provider the verified token names (families/users/oauth-providers.ts).
 */
import { OAUTH_PROVIDERS, addCredentials, deleteCredentials } from "../users/index.js";
import { userForOidcToken } from "../users/index.js";
import { issueCredentialBundle, issueLoginSession } from "../sessions/index.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

export const oauthOperations = [
  defineActivity("create_oauth_providers", {
    policy: { resource: "CREDENTIAL", action: "CREATE", source: "documented" },
    arrayLimits: { oauthProviders: ALLOWANCE.credentialsPerUser },
    // Turnkey's Python, Kotlin, Ruby (0.0.18) and Dart (1.1.2) clients send the first version.
    legacy: ["ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS"],
    authorization: "own-credential",
    run(ctx, p) {
      return { providerIds: addCredentials(ctx, OAUTH_PROVIDERS, p.userId, p.oauthProviders) };
    },
  }),

  defineActivity("delete_oauth_providers", {
    policy: { resource: "CREDENTIAL", action: "DELETE", source: "documented" },
    authorization: "own-credential",
    run(ctx, p) {
      return { providerIds: deleteCredentials(ctx, OAUTH_PROVIDERS, p.userId, p.providerIds) };
    },
  }),

  defineActivity("oauth_login", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented", params: [["session_profile_id", "sessionProfileId", ""]] },
    parentMayInitiate: true,
    proxyForwarded: true,
    run(ctx, p) {
      const user = userForOidcToken(ctx, ctx.org, p.oidcToken, "parameters.oidcToken", p.publicKey);
      return { session: issueLoginSession(ctx, ctx.org, user, p) };
    },
  }),

  defineActivity("oauth", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented" },
    parentMayInitiate: true,
    run(ctx, p) {
      const user = userForOidcToken(ctx, ctx.org, p.oidcToken, "parameters.oidcToken", p.targetPublicKey);
      const bundle = issueCredentialBundle(ctx, {
        org: ctx.org,
        user,
        targetPublicKey: p.targetPublicKey,
        expirationSeconds: p.expirationSeconds,
        credentialType: "CREDENTIAL_TYPE_OAUTH_KEY_P256",
        name: p.apiKeyName || `Oauth - ${ctx.now}`,
        invalidateExisting: p.invalidateExisting,
      });
      return { userId: user.id, ...bundle };
    },
  }),
];
