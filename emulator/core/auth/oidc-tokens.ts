/**
 * OIDC id_tokens as the enclave checks them: the issuer must be one the emulator trusts
 * without network, the ES256 signature must verify against that issuer's JWKS, `exp` must
 * lie ahead, and `iss`, `sub`, `aud` must be present. Every failure is the service's 400
 * `INVALID_OIDC_TOKEN`.
 *
 * Trusted issuers: the built-in one (`<baseUrl>/emulator/v1/oidc`), and the social providers
 * it stands in for offline (Google, Apple, Facebook), whose tokens the built-in issuer mints
 * with their `iss` (POST /emulator/v1/oidc/token `{iss}`) and signs with its own key, so
 * fixture identities such as `https://accounts.google.com` can log in. The key is the trust
 * anchor: a token that names Google but is not signed by the emulator's issuer key fails.
 */
import { DOCUMENTED_ERRORS } from "../error-catalogue.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { type TurnkeyError, documentedError } from "../errors.js";
import { isInputError, quote } from "../input-error.js";
import { decodeJwt, jwksFor, verifyIdToken, type IdTokenClaims } from "../../bundles/index.js";
import type { Runtime } from "../runtime.js";

export const OIDC_PATH = "/emulator/v1/oidc";
export const INVALID_OIDC_TOKEN = DOCUMENTED_ERRORS.INVALID_OIDC_TOKEN.message;

export const oidcIssuerUrl = (rt: Runtime): string => `${rt.urls.baseUrl}${OIDC_PATH}`;

/** The providers' issuers the built-in issuer stands in for (both spellings Google uses). */
export const STAND_IN_ISSUERS: readonly string[] = ["https://accounts.google.com", "accounts.google.com", "https://appleid.apple.com", "https://www.facebook.com"];

/** Whether a token naming `iss` is checked against the built-in issuer's key. */
export const isTrustedIssuer = (rt: Runtime, iss: unknown): boolean => iss === oidcIssuerUrl(rt) || STAND_IN_ISSUERS.includes(iss as string);

export type OidcIdentity = { iss: string; sub: string; aud: string };

function badToken(detail: string, field: string): TurnkeyError {
  return documentedError("INVALID_OIDC_TOKEN", detail, field);
}

/** Verifies an id_token (signature, expiry, required claims) and returns its claims. */
export function verifyOidcToken(rt: Runtime, token: string, field: string): IdTokenClaims & OidcIdentity {
  let claims: Record<string, unknown>;
  try {
    claims = decodeJwt(token).payload;
  } catch {
    throw badToken("not a JWT of three base64url parts", field);
  }
  for (const c of ["iss", "sub", "aud"] as const) {
    const v = claims[c];
    if (!(typeof v === "string" && v) && !(c === "aud" && Array.isArray(v) && v.length)) throw badToken(`missing ${c} claim`, field);
  }
  if (!isTrustedIssuer(rt, claims.iss))
    throw badToken(`untrusted issuer ${quote(claims.iss)} (the emulator trusts its own issuer ${oidcIssuerUrl(rt)} and the providers it stands in for: ${STAND_IN_ISSUERS.join(", ")})`, field);
  let verified: IdTokenClaims;
  try {
    verified = verifyIdToken(token, jwksFor([rt.keys.oidcIssuer]), { nowSeconds: Math.floor(rt.clock.now() / 1000), clockSkewSeconds: 0 });
  } catch (e) {
    const why = isInputError(e) ? e.message : "verification failed";
    throw badToken(why === "id token expired" ? "token expired" : why, field);
  }
  const aud = Array.isArray(verified.aud) ? verified.aud[0]! : verified.aud;
  return { ...verified, iss: verified.iss, sub: verified.sub, aud };
}

/** The nonce login flows bind: lowercase hex SHA-256 of the UTF-8 public-key hex string. */
export const nonceFor = (publicKeyHex: string): string => bytesToHex(sha256(utf8ToBytes(publicKeyHex)));

/** Checks `nonce` (or `tknonce`) against the session key the login names. */
export function checkNonce(claims: Record<string, unknown>, publicKeyHex: string, field: string): void {
  const expected = nonceFor(publicKeyHex);
  if (claims.nonce !== expected && claims.tknonce !== expected) throw badToken("nonce does not match sha256 of the public key", field);
}
