/**
 * `/v1/oauth_login`: the coordinator's oauth_login in the sub-organization that holds the
 * token's (iss, sub, aud), run by the proxy user. `/v1/oauth2_authenticate` needs OAuth2
 * credentials (X, Discord), which the emulator does not have: it answers 501.
 */
import { unimplemented } from "../errors.js";
import { effective } from "./settings.js";
import { forward, type ProxyContext } from "./forward.js";
import { findSubOrganization, loginTarget } from "./account.js";

export async function oauthLogin(px: ProxyContext, b: { oidcToken: string; publicKey: string; invalidateExisting?: boolean; organizationId?: string }): Promise<{ session: string }> {
  const target = loginTarget(px, b.organizationId, () => findSubOrganization(px, "OIDC_TOKEN", b.oidcToken), "OIDC token's issuer, subject and audience");
  const r = await forward(
    px,
    "/public/v1/submit/oauth_login",
    { oidcToken: b.oidcToken, publicKey: b.publicKey, invalidateExisting: b.invalidateExisting, expirationSeconds: String(effective(px.settings).sessionExpirationSeconds) },
    { target },
  );
  return { session: r.session };
}

export function oauth2Authenticate(): never {
  throw unimplemented("oauth2_authenticate: OAuth2 credentials (X, Discord) are not emulated; sign in with an OIDC provider such as the built-in issuer (POST /emulator/v1/oidc/token)");
}
