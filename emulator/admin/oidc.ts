/**
 * The built-in OIDC issuer (`<baseUrl>/emulator/v1/oidc`): discovery document, JWKS, and
 * `POST /emulator/v1/oidc/token` minting an ES256 id_token for the given claims, like a
 * provider's token endpoint after a login. The emulator trusts this issuer without network,
 * and it mints tokens for the social providers it stands in for (`iss`: Google, Apple, Facebook).
 */
import { Router } from "express";
import { invalidArgument } from "../errors.js";
import { sendRpcError } from "../http/errors.js";
import { objectBody } from "../http/body.js";
import { jwksFor, signIdToken, type IdTokenClaims } from "../bundles/index.js";
import { isTrustedIssuer, OIDC_PATH, oidcIssuerUrl, STAND_IN_ISSUERS } from "../auth/oidc-tokens.js";
import type { Runtime } from "../runtime.js";

export type MintRequest = {
  /** A provider the built-in issuer stands in for (auth/oidc-tokens.ts STAND_IN_ISSUERS); default: the built-in issuer. */
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

export function oidcRouter(rt: Runtime): Router {
  const router = Router();
  router.get(`${OIDC_PATH}/.well-known/openid-configuration`, (_req, res) => {
    const iss = oidcIssuerUrl(rt);
    res.json({
      issuer: iss,
      jwks_uri: `${iss}/jwks`,
      token_endpoint: `${iss}/token`,
      authorization_endpoint: `${iss}/authorize`,
      response_types_supported: ["id_token"],
      subject_types_supported: ["public"],
      id_token_signing_alg_values_supported: ["ES256"],
      claims_supported: ["iss", "sub", "aud", "exp", "iat", "nonce", "email", "email_verified"],
    });
  });
  router.get(`${OIDC_PATH}/jwks`, (_req, res) => {
    res.json(jwksFor([rt.keys.oidcIssuer]));
  });
  router.post(`${OIDC_PATH}/token`, objectBody({ form: true }), (req, res) => {
    try {
      const { idToken, claims } = mintIdToken(rt, (req.body ?? {}) as MintRequest);
      res.json({ id_token: idToken, token_type: "Bearer", expires_in: claims.exp - claims.iat });
    } catch (err) {
      sendRpcError(res, err);
    }
  });
  return router;
}
