/**
 * OAuth (OIDC) providers: the one place a provider is registered on a user
 * (create_oauth_providers, users and sub-organizations with providers), and the user a
 * verified id_token logs in as (oauth_login, oauth, the auth proxy's OAuth flows). A provider
 * is the verified token's {iss, sub, aud}; entries given as bare `oidcClaims` are accepted when
 * a verified token (in the same request, or already registered on the user) vouches for the
 * same issuer and subject ("verified by association"). The OAuth2-only providers the emulator
 * plays (X, Discord) are in families/oauth/oauth2-providers.ts.
 */
import { invalidArgument, notFound, resourceExhausted } from "../../core/errors.js";
import { checkNonce, verifyOidcToken, type OidcIdentity } from "../../core/auth/oidc-tokens.js";
import { checkName, requireDistinct } from "../../core/vocabulary/lookups.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import type { UserRow } from "../../core/store/users.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";

export const MAX_OAUTH_PROVIDERS_PER_USER = 10;

export type OauthProviderParams = { providerName: string; oidcToken?: string; oidcClaims?: { iss: string; sub: string; aud: string } };

/** Registers OAuth providers on one user; returns their ids. */
export function addOauthProviders(ctx: DomainContext, orgId: string, userId: string, list: OauthProviderParams[], field: string): string[] {
  if (list.length === 0) return [];
  const { store } = ctx.rt;
  const registered = store.oauthProviders.forUser(userId);
  if (registered.length + list.length > MAX_OAUTH_PROVIDERS_PER_USER)
    throw resourceExhausted(`user has exceeded maximum oauth providers (${MAX_OAUTH_PROVIDERS_PER_USER})`);
  const verified = list.map((p, i) => (p.oidcToken ? verifyOidcToken(ctx.rt, p.oidcToken, `${field}[${i}].oidcToken`) : undefined));
  const vouched = new Set([...verified.filter((c) => c).map((c) => `${c!.iss}\n${c!.sub}`), ...registered.map((p) => `${p.issuer}\n${p.subject}`)]);
  const identities: OidcIdentity[] = list.map((p, i) => {
    const f = `${field}[${i}]`;
    checkName(p.providerName, `${f}.providerName`);
    const claims = verified[i];
    if (claims) {
      if (p.oidcClaims && (p.oidcClaims.iss !== claims.iss || p.oidcClaims.sub !== claims.sub || p.oidcClaims.aud !== claims.aud))
        throw invalidArgument("oidcClaims do not match the oidcToken's iss, sub and aud", `${f}.oidcClaims`);
      return { iss: claims.iss, sub: claims.sub, aud: claims.aud };
    }
    if (!p.oidcClaims) throw invalidArgument("each OAuth provider needs an oidcToken or oidcClaims", `${f}.oidcToken`);
    const { iss, sub, aud } = p.oidcClaims;
    if (!iss || !sub || !aud) throw invalidArgument("oidcClaims need iss, sub and aud", `${f}.oidcClaims`);
    if (!vouched.has(`${iss}\n${sub}`))
      throw invalidArgument("oidcClaims must share issuer and subject with a verified oidcToken of this user", `${f}.oidcClaims`, "INVALID_OIDC_TOKEN");
    return { iss, sub, aud };
  });
  requireDistinct(identities.map((x) => `${x.iss} ${x.sub} ${x.aud}`), `${field}.oidcClaims`);
  const email = store.users.byId(userId)!.email?.toLowerCase();
  return list.map((p, i) => {
    const { iss, sub, aud } = identities[i]!;
    if (store.oauthProviders.byIdentity(iss, sub, aud).some((x) => x.orgId === orgId))
      throw invalidArgument("an OAuth provider with this issuer, subject and audience already exists in the organization", `${field}[${i}]`, "OAUTH_PROVIDER_ALREADY_EXISTS");
    const id = ctx.rt.random.uuid();
    store.oauthProviders.insert({ id, orgId, userId, name: p.providerName, issuer: iss, subject: sub, audience: aud, createdAt: ctx.now, updatedAt: ctx.now });
    // A provider token that vouches for the user's email verifies it (Google social linking).
    const claims = verified[i];
    if (claims && claims.email_verified === true && typeof claims.email === "string" && email === claims.email.toLowerCase())
      store.users.update(userId, { emailVerified: true }, ctx.now);
    return id;
  });
}

/** The user of `org` that holds the verified token's identity. */
export function userForOidcToken(ctx: DomainContext, org: OrganizationRow, token: string, field: string, sessionKeyForNonce: string): UserRow {
  const claims = verifyOidcToken(ctx.rt, token, field);
  checkNonce(claims, sessionKeyForNonce, field);
  const provider = ctx.rt.store.oauthProviders.byIdentity(claims.iss, claims.sub, claims.aud).find((p) => p.orgId === org.id);
  if (!provider) throw notFound("no OAuth provider in this organization matches the OIDC token's issuer, subject and audience", "OAUTH2_PROVIDER_NOT_FOUND");
  return ctx.rt.store.users.byId(provider.userId)!;
}
