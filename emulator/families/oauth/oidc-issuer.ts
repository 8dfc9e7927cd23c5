/**
 * Minting the built-in OIDC issuer's id_tokens (ES256, signed with the instance's issuer key):
 * for `POST /emulator/v1/oidc/token` (oidc-routes.ts) and for oauth2_authenticate, which trades
 * an authorization code for such a token. The issuer and the providers it stands in for are
 * those that core/auth/oidc-tokens.ts trusts.
 */
import { invalidArgument } from "../../core/errors.js";
import { signIdToken, type IdTokenClaims } from "../../bundles/index.js";
import { isTrustedIssuer, oidcIssuerUrl, STAND_IN_ISSUERS } from "../../core/auth/oidc-tokens.js";
import type { Runtime } from "../../core/runtime.js";

export type MintRequest = {
  /** A provider the built-in issuer stands in for (core/auth/oidc-tokens.ts STAND_IN_ISSUERS); default: the built-in issuer. */
  iss?: unknown;
  sub?: unknown;
  aud?: unknown;
  email?: unknown;
  email_verified?: unknown;
  nonce?: unknown;
  /** Lifetime from now; negative mints an already expired token (for tests). Default 3600. */
  expiresInSeconds?: unknown;
  /** Extra claims, copied verbatim (cannot override iss). */
  claims?: unknown;
};

export function mintIdToken(rt: Runtime, body: MintRequest): { idToken: string; claims: IdTokenClaims } {
  const str = (v: unknown, field: string, required: boolean): string | undefined => {
    if (v === undefined && !required) return undefined;
    if (typeof v !== "string" || !v) throw invalidArgument(`${field} must be a non-empty string`, field);
    return v;
  };
  const iss = str(body.iss, "iss", false) ?? oidcIssuerUrl(rt);
  if (!isTrustedIssuer(rt, iss)) throw invalidArgument(`iss must be the built-in issuer ${oidcIssuerUrl(rt)} or one it stands in for: ${STAND_IN_ISSUERS.join(", ")}`, "iss");
  const sub = str(body.sub, "sub", true)!;
  const aud = str(body.aud, "aud", true)!;
  const email = str(body.email, "email", false);
  const nonce = str(body.nonce, "nonce", false);
  const ttl = body.expiresInSeconds === undefined ? 3600 : Number(body.expiresInSeconds);
  if (!Number.isInteger(ttl)) throw invalidArgument("expiresInSeconds must be an integer", "expiresInSeconds");
  const extra = body.claims && typeof body.claims === "object" ? (body.claims as Record<string, unknown>) : {};
  const iat = Math.floor(rt.clock.now() / 1000);
  const claims: IdTokenClaims = {
    ...extra,
    iss,
    sub,
    aud,
    iat: Math.min(iat, iat + ttl),
    exp: iat + ttl,
    ...(nonce ? { nonce } : {}),
    ...(email ? { email, email_verified: body.email_verified === undefined ? true : body.email_verified === true } : {}),
  };
  return { idToken: signIdToken(claims, rt.keys.oidcIssuer), claims };
}
