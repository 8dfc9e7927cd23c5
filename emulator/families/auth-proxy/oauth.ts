/**
 * `/v1/oauth_login`: the coordinator's oauth_login in the sub-organization that holds the
 * token's (iss, sub, aud), run by the proxy user. `/v1/oauth2_authenticate`: the
 * coordinator's oauth2_authenticate with the organization's OAuth2 credential for the
 * provider and client id (X, Discord; the emulator plays the provider).
 */
import { invalidArgument } from "../../core/errors.js";
import { effective } from "./settings.js";
import { forward } from "./forward.js";
import type { ProxyContext } from "../../core/vocabulary/contexts.js";
import type { ProxyBody } from "../../core/vocabulary/define.js";
import { findSubOrganization, loginTarget } from "./account.js";
import { oauth2CredentialFor } from "../oauth/index.js";

export async function oauthLogin(px: ProxyContext, b: ProxyBody<"oauth_login">): Promise<{ session: string }> {
  const target = loginTarget(px, b.organizationId, () => findSubOrganization(px, "OIDC_TOKEN", b.oidcToken), "OIDC token's issuer, subject and audience");
  const r = await forward(
    px,
    "oauth_login",
    { oidcToken: b.oidcToken, publicKey: b.publicKey, invalidateExisting: b.invalidateExisting, expirationSeconds: String(effective(px.settings).sessionExpirationSeconds) },
    { target },
  );
  return { session: r.session };
}

export async function oauth2Authenticate(px: ProxyContext, b: ProxyBody<"oauth2_authenticate">): Promise<{ oidcToken: string }> {
  const cred = oauth2CredentialFor(px.rt, px.org.id, b.provider, b.clientId);
  if (!cred) throw invalidArgument(`no OAuth2 credential for ${b.provider} with client id ${b.clientId} in this organization`, "clientId", "OAUTH2_PROVIDER_NOT_CONFIGURED");
  const r = await forward(px, "oauth2_authenticate", {
    oauth2CredentialId: cred.id,
    authCode: b.authCode,
    redirectUri: b.redirectUri,
    codeVerifier: b.codeVerifier,
    nonce: b.nonce,
  });
  return { oidcToken: r.oidcToken };
}
