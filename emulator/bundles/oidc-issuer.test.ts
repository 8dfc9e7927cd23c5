import { describe, it, expect } from "vitest";
import * as jose from "jose";
import { jwksFor, publicJwk, signIdToken, verifyIdToken } from "./oidc-issuer.js";
import { base64UrlEncode } from "./jwt.js";
import { generateP256KeyPair } from "./p256.js";

const issuer = "http://localhost:8787/oidc";
const key = generateP256KeyPair();
// A fixed clock: the verifiers (ours and jose) are given this instant instead of reading the wall clock.
const now = 1_767_225_600; // 2026-01-01T00:00:00Z
const claims = { iss: issuer, sub: "user-1", aud: "client-1", iat: now, exp: now + 600, nonce: "ab".repeat(32), email: "u@example.com" };

describe("built-in OIDC issuer", () => {
  it("jose verifies our id_token against our JWKS (iss, aud, exp checked)", async () => {
    const token = signIdToken(claims, key);
    const { payload, protectedHeader } = await jose.jwtVerify(token, jose.createLocalJWKSet(jwksFor([key])), { issuer, audience: "client-1", currentDate: new Date(now * 1000) });
    expect(payload).toEqual(claims);
    expect(protectedHeader.kid).toBe(await jose.calculateJwkThumbprint(publicJwk(key)));
  });

  it("verifies a jose-signed id_token and enforces exp, iss, aud and key", async () => {
    const jwk = publicJwk(key);
    const privateKey = await jose.importJWK({ kty: "EC", crv: "P-256", x: jwk.x, y: jwk.y, d: base64UrlEncode(key.privateKey) }, "ES256");
    const sign = (c: jose.JWTPayload) => new jose.SignJWT(c).setProtectedHeader({ alg: "ES256", kid: jwk.kid }).sign(privateKey);
    const jwks = jwksFor([generateP256KeyPair(), key]);
    const at = { nowSeconds: now };
    expect(verifyIdToken(await sign(claims), jwks, { issuer, audience: "client-1", ...at }).sub).toBe("user-1");
    expect(() => verifyIdToken(signIdToken({ ...claims, exp: now - 3600 }, key), jwks, at)).toThrow(/expired/);
    // exp is honoured up to the 60 s clock skew and no further.
    expect(verifyIdToken(signIdToken({ ...claims, exp: now - 60 }, key), jwks, at).sub).toBe("user-1");
    expect(() => verifyIdToken(signIdToken({ ...claims, exp: now - 61 }, key), jwks, at)).toThrow(/expired/);
    expect(() => verifyIdToken(signIdToken({ ...claims, exp: now - 1 }, key), jwks, { ...at, clockSkewSeconds: 0 })).toThrow(/expired/);
    expect(() => verifyIdToken(signIdToken(claims, key), jwks, { ...at, issuer: "other" })).toThrow(/issuer/);
    expect(() => verifyIdToken(signIdToken(claims, key), jwks, { ...at, audience: "other" })).toThrow(/audience/);
    expect(() => verifyIdToken(signIdToken(claims, generateP256KeyPair()), jwks, at)).toThrow(/unknown key/);
  });
});
