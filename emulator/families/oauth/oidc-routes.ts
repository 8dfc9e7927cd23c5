/**
 * The built-in OIDC issuer (`<baseUrl>/emulator/v1/oidc`): discovery document, JWKS, and
 * `POST /emulator/v1/oidc/token` minting an ES256 id_token for the given claims
 * (`mintIdToken`, oidc-issuer.ts), like a provider's token endpoint after a login. The
 * emulator trusts this issuer without network, and it mints tokens for the social providers
 * it stands in for (`iss`: Google, Apple, Facebook).
 */
import { Router } from "express";
import { sendRpcError } from "../../core/http/errors.js";
import { objectBody } from "../../core/http/body.js";
import { jwksFor } from "../../bundles/index.js";
import { OIDC_PATH, oidcIssuerUrl } from "../../core/auth/oidc-tokens.js";
import { mintIdToken, type MintRequest } from "./oidc-issuer.js";
import type { Runtime } from "../../core/runtime.js";

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
