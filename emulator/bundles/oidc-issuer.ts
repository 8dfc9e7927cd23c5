/**
 * A built-in OIDC issuer for local OAuth flows: ES256 id_tokens with a JWKS. Key ids are RFC 7638
 * JWK thumbprints. Payloads are written atob-safe like every other token here (see jwt.ts).
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";
import { base64UrlDecode, base64UrlEncode, decodeJwt, encodeJwtSegment, verifyEs256Jwt } from "./jwt.js";
import { signRaw, type P256KeyPair } from "./p256.js";

export type EcPublicJwk = { kty: "EC"; crv: "P-256"; x: string; y: string; kid: string; alg: "ES256"; use: "sig" };
export type Jwks = { keys: EcPublicJwk[] };

export type IdTokenClaims = {
  iss: string;
  sub: string;
  aud: string | string[];
  /** NumericDate seconds. */
  exp: number;
  iat: number;
  nonce?: string;
  email?: string;
  email_verified?: boolean;
  [claim: string]: unknown;
};

export function publicJwk(key: P256KeyPair): EcPublicJwk {
  const x = base64UrlEncode(key.publicKey.subarray(1, 33));
  const y = base64UrlEncode(key.publicKey.subarray(33, 65));
  // RFC 7638 thumbprint: required members in lexicographic order, no whitespace.
  const kid = base64UrlEncode(sha256(utf8ToBytes(JSON.stringify({ crv: "P-256", kty: "EC", x, y }))));
  return { kty: "EC", crv: "P-256", x, y, kid, alg: "ES256", use: "sig" };
}

export const jwksFor = (keys: P256KeyPair[]): Jwks => ({ keys: keys.map(publicJwk) });

export function signIdToken(claims: IdTokenClaims, key: P256KeyPair): string {
  const header = { alg: "ES256", typ: "JWT", kid: publicJwk(key).kid };
  const signingInput = `${encodeJwtSegment(header)}.${encodeJwtSegment(claims)}`;
  return `${signingInput}.${base64UrlEncode(signRaw(utf8ToBytes(signingInput), key.privateKey))}`;
}

/**
 * Verifies an id_token against a JWKS: kid lookup, ES256 signature, exp (with `clockSkewSeconds`),
 * and iss / aud when expected values are given. Throws InputErrors of kind "unauthenticated".
 */
export function verifyIdToken(
  idToken: string,
  jwks: Jwks,
  options: { issuer?: string; audience?: string; nowSeconds?: number; clockSkewSeconds?: number } = {},
): IdTokenClaims {
  const { header } = decodeJwt(idToken);
  const candidates = header.kid === undefined ? jwks.keys : jwks.keys.filter((k) => k.kid === header.kid);
  if (candidates.length === 0) throw new InputError("id token signed by an unknown key", undefined, "unauthenticated");
  let claims: Record<string, unknown> | undefined;
  for (const jwk of candidates) {
    if (jwk.kty !== "EC" || jwk.crv !== "P-256") continue;
    const pub = new Uint8Array(65);
    pub[0] = 4;
    pub.set(base64UrlDecode(jwk.x), 1);
    pub.set(base64UrlDecode(jwk.y), 33);
    try {
      claims = verifyEs256Jwt(idToken, pub).payload;
      break;
    } catch {
      /* try the next key */
    }
  }
  if (!claims) throw new InputError("invalid id token signature", undefined, "unauthenticated");
  const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
  const skew = options.clockSkewSeconds ?? 60;
  if (typeof claims.exp !== "number" || claims.exp + skew < now) throw new InputError("id token expired", undefined, "unauthenticated");
  if (options.issuer !== undefined && claims.iss !== options.issuer) throw new InputError("id token issuer mismatch", undefined, "unauthenticated");
  if (options.audience !== undefined) {
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.includes(options.audience)) throw new InputError("id token audience mismatch", undefined, "unauthenticated");
  }
  return claims as IdTokenClaims;
}
