import { describe, it, expect } from "vitest";
import { bytesToHex } from "@noble/hashes/utils.js";
import * as jose from "jose";
import { atob as encodingAtob } from "@turnkey/encoding";
import {
  verifySessionJwtSignature,
  verifyOtpVerificationToken,
  PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY,
  PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY,
} from "@turnkey/crypto";
import { signSessionJwt, signVerificationToken, verifyEs256Jwt, type SessionJwtClaims } from "./jwt.js";
import { enclaveKeysFromSeed, enclavePublicKeysHex } from "./enclave-keys.js";
import { base64UrlEncode } from "./jwt.js";
import { compressedP256Hex, generateP256KeyPair } from "./p256.js";

const keys = enclaveKeysFromSeed(new Uint8Array(32).fill(5));
const pub = enclavePublicKeysHex(keys);

// Production tokens from @turnkey/crypto src/__tests__/crypto-test.ts.
const PROD_SESSION_JWT =
  "eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9." +
  "eyJleHAiOjE3NDg4NzY4MzcsInB1YmxpY19rZXkiOiIwMzk5ZmUyYWNlNjIwOGFmMGFkZjg0OGY0NGJjNDgyMTBiNTk0YjdlNjllY2Q5MWVjOTY4ZmQ3NWIzYmI0NDgzMzYiLCJzZXNzaW9uX3R5cGUiOiJTRVNTSU9OX1RZUEVfUkVBRF9XUklURSIsInVzZXJfaWQiOiI2OTEyYjgxOS1mNGRmLTQwZjQtYTE5Mi0yMGVlNDMwOTA5NzQiLCJvcmdhbml6YXRpb25faWQiOiJjNzVlY2IwNy1jODRhLTRkZDUtOTMyYy01MzlkZmFmYzY4NjQifQ." +
  "y6LPW1jlTwc9jFcvCwKJoKfleL_vHnGUr5tRVdMFUCnHvDspSPZ3DWK85tf1znCCBFQ6MYaFOl-1FLb0KcFxqQ";
const PROD_OTP_TOKEN =
  "eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9." +
  "eyJleHAiOiIxNzgyOTE5NjUxMjYxIiwiaWQiOiJlYjM5YjE5OS0zMzUyLTQyODktYjMxZi01NzE5NGM3OTYwOWMiLCJvcmdhbml6YXRpb25faWQiOiI3ZmYxODlmYi1kZjdkLTQ1MmUtODU0MC01NzYzMmUzODBiNzciLCJ2ZXJpZmljYXRpb25fdHlwZSI6Ik9UUF9UWVBFX0VNQUlMIiwiY29udGFjdCI6InVzZXJAZXhhbXBsZS5jb20iLCJwdWJsaWNfa2V5IjoiMDM2MzM1Yjc4ZjkyNzM2ZTMyZTk5ZGM2YWVkOTc5YWZmMGI1YzI0MTkyZTc2YjE2MjhhYTU0ZWRhZjU4YzhjMTVkIn0." +
  "YMtLA5vVUTiYhW5CIitrGXb-fk4MWx-MNVC4etopkKVro6tn0CP-Uz7biSZOunASsEc3jkjJWnFIn2AMpuZomg";

const sessionClaims = (over: Partial<SessionJwtClaims> = {}): SessionJwtClaims => ({
  exp: 1_900_000_000,
  public_key: compressedP256Hex(generateP256KeyPair().publicKey),
  session_type: "SESSION_TYPE_READ_WRITE",
  user_id: "6912b819-f4df-40f4-a192-20ee43090974",
  organization_id: "c75ecb07-c84a-4dd5-932c-539dfafc6864",
  ...over,
});

// What sdk-browser (global atob) and core (@turnkey/encoding atob) do with the payload segment.
const parseWithGlobalAtob = (jwt: string) => JSON.parse(atob(jwt.split(".")[1]!));
const parseWithEncodingAtob = (jwt: string) => JSON.parse(encodingAtob(jwt.split(".")[1]!));

describe("session JWT", () => {
  it("verifySessionJwtSignature accepts ours with our notarizer key, not with the production one", async () => {
    const jwt = signSessionJwt(sessionClaims(), keys.notarizer);
    expect(await verifySessionJwtSignature(jwt, pub.notarizer)).toBe(true);
    expect(await verifySessionJwtSignature(jwt, PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY)).toBe(false);
    expect(jwt.split(".")[0]).toBe("eyJhbGciOiJFUzI1NiIsInR5cCI6IkpXVCJ9"); // {"alg":"ES256","typ":"JWT"}
  });

  it("our verifier accepts the production session JWT (double hash) and rejects it as a plain ES256 token", () => {
    const { payload } = verifyEs256Jwt(PROD_SESSION_JWT, PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY, { doubleHash: true });
    expect(payload.exp).toBe(1748876837);
    expect(() => verifyEs256Jwt(PROD_SESSION_JWT, PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY)).toThrow(/signature/);
  });

  it("payloads stay atob-parseable and claim-identical whatever the claim text", async () => {
    // Place '>', '?', '~' and non-ASCII at every offset mod 3; without escaping, some would yield '-'/'_'.
    for (let pad = 0; pad < 3; pad++) {
      const claims = sessionClaims({
        user_id: "x".repeat(pad) + ">>>???~~~é😀<script>",
        session_type: "SESSION_TYPE_READ_WRITE" + "?".repeat(pad + 1),
        session_profile_id: "~".repeat(pad + 2),
        scope: { a: ">?~" },
      });
      const jwt = signSessionJwt(claims, keys.notarizer);
      expect(jwt.split(".")[1]).not.toMatch(/[-_=]/);
      expect(parseWithGlobalAtob(jwt)).toEqual(claims);
      expect(parseWithEncodingAtob(jwt)).toEqual(claims);
      expect(await verifySessionJwtSignature(jwt, pub.notarizer)).toBe(true);
    }
    // Sanity: the naive encoding of such a payload does contain '-' or '_' (the hazard is real).
    expect(base64UrlEncode(new TextEncoder().encode(JSON.stringify({ a: "xx>>>???~~~" })))).toMatch(/[-_]/);
  });

  it("keeps the production claim order and numeric exp", () => {
    const jwt = signSessionJwt(sessionClaims({ session_profile_id: "p" }), keys.notarizer);
    expect(Object.keys(parseWithGlobalAtob(jwt))).toEqual([
      "exp", "public_key", "session_type", "user_id", "organization_id", "session_profile_id",
    ]);
    expect(() => signSessionJwt(sessionClaims({ exp: 1.5 }), keys.notarizer)).toThrow();
  });
});

describe("OTP verification token", () => {
  const claims = () => ({
    // @turnkey/crypto checks exp against the real clock and takes no clock: a fixed instant far ahead (2100-01-01).
    exp: "4102444800000",
    id: "eb39b199-3352-4289-b31f-57194c79609c",
    organization_id: "7ff189fb-df7d-452e-8540-57632e380b77",
    verification_type: "OTP_TYPE_EMAIL",
    contact: "user+tag?@example.com",
    public_key: compressedP256Hex(generateP256KeyPair().publicKey),
  });

  it("verifyOtpVerificationToken accepts ours with our TLS-fetcher key and returns the claims", async () => {
    const c = claims();
    const token = signVerificationToken(c, keys.tlsFetcher);
    expect(await verifyOtpVerificationToken(token, pub.tlsFetcher)).toEqual(c);
    await expect(verifyOtpVerificationToken(token)).rejects.toThrow(/invalid/);
    expect(parseWithEncodingAtob(token)).toEqual(c); // core decodeVerificationToken
  });

  it("is a standard ES256 JWT (jose verifies it)", async () => {
    const token = signVerificationToken(claims(), keys.tlsFetcher);
    const key = await jose.importJWK(
      {
        kty: "EC", crv: "P-256",
        x: base64UrlEncode(keys.tlsFetcher.publicKey.subarray(1, 33)),
        y: base64UrlEncode(keys.tlsFetcher.publicKey.subarray(33)),
      },
      "ES256",
    );
    // compactVerify: signature only (jwtVerify would reject the string exp, which is Turnkey's format).
    const { protectedHeader } = await jose.compactVerify(token, key);
    expect(protectedHeader).toEqual({ typ: "JWT", alg: "ES256" });
    await expect(jose.compactVerify(signSessionJwt(sessionClaims(), keys.tlsFetcher), key)).rejects.toThrow(); // double hash ≠ ES256
  });

  it("our verifier accepts the production verification token with the production TLS-fetcher key", () => {
    const { payload } = verifyEs256Jwt(PROD_OTP_TOKEN, PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY);
    expect(payload.contact).toBe("user@example.com");
    expect(() => verifyEs256Jwt(PROD_OTP_TOKEN, pub.tlsFetcher)).toThrow(/signature/);
  });

  it("rejects a non-millisecond exp", () => {
    expect(() => signVerificationToken({ ...claims(), exp: "soon" }, keys.tlsFetcher)).toThrow();
    expect(bytesToHex(keys.tlsFetcher.publicKey)).toBe(pub.tlsFetcher);
  });
});
