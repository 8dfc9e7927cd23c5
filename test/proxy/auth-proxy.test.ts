import { beforeAll, describe, expect, it } from "vitest";
import { encryptOtpCodeToBundle, generateP256KeyPair, verifyOtpVerificationToken, verifySessionJwtSignature } from "@turnkey/crypto";
import { getAuthProxyConfig, getClientParams, getClientSignatureMessageForLogin, getClientSignatureMessageForSignup } from "@turnkey/core";
// @ts-expect-error no declaration file for the deep .mjs path (core exports the stamper only internally)
import { AttestedStamper } from "@turnkey/core/dist/__stampers__/attested/base.mjs";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { sdkClient, type KeyPair } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { info, lastMail, mintIdToken, type Info } from "../auth/support.js";
import { proxyClient, proxyPost } from "./support.js";

const emu = useTestEmulator();
let i: Info;
let configId: string;

beforeAll(async () => {
  i = await info(emu);
  configId = emu.info.authProxyConfigId!;
});

const newKey = (): KeyPair => {
  const k = generateP256KeyPair();
  return { privateKey: k.privateKey, publicKey: k.publicKey };
};
/** Raw r‖s hex ECDSA-P256 over SHA-256(message), as core's signWithApiKey produces. */
const signMessage = (message: string, privateKeyHex: string) => bytesToHex(p256.sign(sha256(utf8ToBytes(message)), hexToBytes(privateKeyHex), { prehash: false }));
const payloadOf = (jwt: string) => JSON.parse(atob(jwt.split(".")[1]!));
const nonceOf = (publicKey: string) => bytesToHex(sha256(utf8ToBytes(publicKey)));

/** otp_init_v2 → mailbox → encryptOtpCodeToBundle → otp_verify_v2, binding `key`. */
async function verifiedToken(contact: string, key: KeyPair, otpType = "OTP_TYPE_EMAIL"): Promise<string> {
  const px = proxyClient(emu);
  const { otpId, otpEncryptionTargetBundle } = await px.proxyInitOtpV2({ otpType, contact });
  const mail = await lastMail(emu, contact);
  expect(mail.otpId).toBe(otpId);
  const encryptedOtpBundle = await encryptOtpCodeToBundle(mail.otpCode!, otpEncryptionTargetBundle, key.publicKey, i.tlsFetcherPublicKey);
  return (await px.proxyVerifyOtpV2({ otpId, encryptedOtpBundle })).verificationToken;
}

/** The X-Stamp-Attested header core's AttestedStamper makes, signing with the official API-key stamper. */
async function attestedStamp(body: string, key: KeyPair, token: string, scheme: string) {
  const signer = { sign: (payload: string, format: any) => new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).sign(payload, format) };
  const stamper = new AttestedStamper(signer as any);
  stamper.configure({ attestedIdentity: token, publicKey: key.publicKey, scheme } as any);
  return stamper.stamp(body);
}

describe("wallet kit", () => {
  it("wallet_kit_config (body-less, as core's getAuthProxyConfig sends it) matches the fixture", async () => {
    const cfg = await getAuthProxyConfig(configId, emu.proxyUrl);
    expect(cfg).toEqual({
      enabledProviders: ["email", "sms", "passkey", "wallet", "google", "apple"],
      sessionExpirationSeconds: "900",
      organizationId: i.organizationId,
      oauthClientIds: {},
      otpAlphanumeric: false,
      otpLength: "6",
    });
    expect(await proxyClient(emu).proxyGetWalletKitConfig({})).toEqual(cfg);
  });

  it("wallet_kit_client_params has no site key while captcha is off", async () => {
    expect(await getClientParams(configId, emu.proxyUrl)).toEqual({});
  });
});

describe("OTP signup and login through the proxy", () => {
  const EMAIL = "proxy-otp@example.com";
  let subOrgId: string;
  let userId: string;

  it("otp_init_v2 → otp_verify_v2 → account (none) → signup_v2 with clientSignature creates a verified sub-org", async () => {
    const key = newKey();
    const verificationToken = await verifiedToken(EMAIL, key);
    expect(await verifyOtpVerificationToken(verificationToken, i.tlsFetcherPublicKey)).toMatchObject({ contact: EMAIL, verification_type: "OTP_TYPE_EMAIL", public_key: key.publicKey });
    const code = (await lastMail(emu, EMAIL)).otpCode!;
    expect(code).toMatch(/^\d{6}$/); // the fixture's config: 6 digits

    const px = proxyClient(emu);
    expect(await px.proxyGetAccount({ filterType: "EMAIL", filterValue: EMAIL, verificationToken })).toEqual({});

    const apiKeys = [{ apiKeyName: "session", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" as const, expirationSeconds: "60" }];
    const { message, publicKey } = getClientSignatureMessageForSignup({ verificationToken, email: EMAIL, apiKeys });
    const clientSignature = { publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature: signMessage(message, key.privateKey) };
    const r = await px.proxySignupV2({
      userEmail: EMAIL,
      userName: "proxy otp user",
      organizationName: "proxy otp org",
      verificationToken,
      apiKeys,
      authenticators: [],
      oauthProviders: [],
      wallet: { walletName: "w", accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }] },
      clientSignature,
    });
    subOrgId = r.organizationId;
    userId = r.userId;
    expect(r.wallet?.addresses[0]).toMatch(/^0x[0-9a-fA-F]{40}$/);

    // The signup key stamps whoami in the new sub-org; the email is verified.
    const me = await sdkClient(emu, key, subOrgId).getWhoami({ organizationId: subOrgId });
    expect(me).toMatchObject({ organizationId: subOrgId, userId, username: "proxy otp user" });
    const { user } = await sdkClient(emu, key, subOrgId).getUser({ organizationId: subOrgId, userId });
    expect(user.userEmail).toBe(EMAIL);
    expect((await sdkClient(emu).getVerifiedSubOrgIds({ filterType: "EMAIL", filterValue: EMAIL })).organizationIds).toEqual([subOrgId]);
    expect(await px.proxyGetAccount({ filterType: "EMAIL", filterValue: EMAIL })).toEqual({ organizationId: subOrgId });
  });

  it("a second OTP logs in by stamp_login with an X-Stamp-Attested verification-token stamp (core's loginWithOtp)", async () => {
    const session = newKey();
    const verificationToken = await verifiedToken(EMAIL, session);
    expect(await proxyClient(emu).proxyGetAccount({ filterType: "EMAIL", filterValue: EMAIL, verificationToken })).toEqual({ organizationId: subOrgId });
    const body = JSON.stringify({ type: "ACTIVITY_TYPE_STAMP_LOGIN", timestampMs: String(Date.now()), organizationId: subOrgId, parameters: { publicKey: session.publicKey } });
    const stamp = await attestedStamp(body, session, verificationToken, "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN");
    const res = await fetch(`${emu.url}/public/v1/submit/stamp_login`, { method: "POST", headers: { "content-type": "application/json", [stamp.stampHeaderName]: stamp.stampHeaderValue }, body });
    expect(res.status).toBe(200);
    const jwt = ((await res.json()) as any).activity.result.stampLoginResult.session;
    expect(await verifySessionJwtSignature(jwt, i.notarizerPublicKey)).toBe(true);
    expect((await sdkClient(emu, session, subOrgId).getWhoami({ organizationId: subOrgId })).userId).toBe(userId);
  });

  it("otp_login_v2 without organizationId finds the verified sub-org; the session key stamps whoami", async () => {
    const session = newKey();
    const verificationToken = await verifiedToken(EMAIL, session);
    const { message } = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: session.publicKey });
    const clientSignature = { publicKey: session.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature: signMessage(message, session.privateKey) };
    const before = Math.floor(emu.runtime.clock.now() / 1000);
    const { session: jwt } = await proxyClient(emu).proxyOtpLoginV2({ verificationToken, publicKey: session.publicKey, clientSignature });
    const after = Math.floor(emu.runtime.clock.now() / 1000);
    expect(await verifySessionJwtSignature(jwt, i.notarizerPublicKey)).toBe(true);
    const claims = payloadOf(jwt);
    expect(claims).toMatchObject({ organization_id: subOrgId, user_id: userId, public_key: session.publicKey });
    // The fixture's session lifetime (900 s) from the emulator's clock at issuance.
    expect(claims.exp).toBeGreaterThanOrEqual(before + 900);
    expect(claims.exp).toBeLessThanOrEqual(after + 900);
    expect((await sdkClient(emu, session, subOrgId).getWhoami({ organizationId: subOrgId })).userId).toBe(userId);
  });

  it("otp_login_v2 refuses a client signature by another key and a reused token", async () => {
    const session = newKey();
    const verificationToken = await verifiedToken(EMAIL, session);
    const other = newKey();
    const { message } = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: session.publicKey });
    const forged = { publicKey: other.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature: signMessage(message, other.privateKey) };
    const px = proxyClient(emu);
    await expect(px.proxyOtpLoginV2({ verificationToken, publicKey: session.publicKey, clientSignature: forged })).rejects.toThrow(/public key/);
    const good = { ...forged, publicKey: session.publicKey, signature: signMessage(message, session.privateKey) };
    await px.proxyOtpLoginV2({ verificationToken, publicKey: session.publicKey, clientSignature: good, organizationId: subOrgId });
    await expect(px.proxyOtpLoginV2({ verificationToken, publicKey: session.publicKey, clientSignature: good })).rejects.toThrow(/already been used/);
  });

  it("legacy otp_init → otp_verify (plaintext code) → otp_login (no client signature when no key is bound)", async () => {
    const px = proxyClient(emu);
    const { otpId } = await px.proxyInitOtp({ otpType: "OTP_TYPE_EMAIL", contact: EMAIL });
    const code = (await lastMail(emu, EMAIL)).otpCode!;
    await expect(px.proxyVerifyOtp({ otpId, otpCode: code === "000000" ? "111111" : "000000" })).rejects.toThrow(/invalid OTP code/);
    const { verificationToken } = await px.proxyVerifyOtp({ otpId, otpCode: code });
    const session = newKey();
    const { session: jwt } = await px.proxyOtpLogin({ verificationToken, publicKey: session.publicKey });
    expect(payloadOf(jwt)).toMatchObject({ organization_id: subOrgId, user_id: userId });
  });

  it("records the forwarded work as activities of the parent org made by the proxy user", async () => {
    const { activities } = await sdkClient(emu).getActivities({ organizationId: i.organizationId, paginationOptions: { limit: "100" } });
    const types = new Set(activities.filter((a) => a.status === "ACTIVITY_STATUS_COMPLETED").map((a) => a.type));
    for (const t of ["ACTIVITY_TYPE_INIT_OTP_V3", "ACTIVITY_TYPE_VERIFY_OTP_V2", "ACTIVITY_TYPE_VERIFY_OTP", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8"]) expect(types).toContain(t);
    const { users } = await sdkClient(emu).getUsers({ organizationId: i.organizationId });
    const proxyUser = users.find((u) => u.userName === "Auth Proxy")!;
    expect(proxyUser).toBeDefined();
    const signup = activities.find((a) => a.type === "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8")!;
    expect(signup.votes[0]!.userId).toBe(proxyUser.userId);
    // The vote carries the proxy key's real signature over the forwarded body.
    const vote = signup.votes[0]!;
    expect(p256.verify(hexToBytes(vote.signature), sha256(utf8ToBytes(vote.message)), hexToBytes(vote.publicKey), { prehash: false, format: "der" })).toBe(true);
  });
});

describe("OAuth through the proxy (built-in OIDC issuer)", () => {
  const AUD = "proxy-web-client";
  it("account(OIDC_TOKEN) → signup_v2 with the provider → oauth_login; and stamp_login with an attested OIDC stamp", async () => {
    const px = proxyClient(emu);
    const signupToken = await mintIdToken(emu, { sub: "dave-sub", aud: AUD, email: "dave@example.com" });
    expect(await px.proxyGetAccount({ filterType: "OIDC_TOKEN", filterValue: signupToken })).toEqual({});
    const { organizationId, userId } = await px.proxySignupV2({
      userEmail: "dave@example.com",
      apiKeys: [],
      authenticators: [],
      oauthProviders: [{ providerName: "emulator", oidcToken: signupToken }],
    });
    expect(await px.proxyGetAccount({ filterType: "OIDC_TOKEN", filterValue: signupToken })).toEqual({ organizationId });

    const session = newKey();
    const loginToken = await mintIdToken(emu, { sub: "dave-sub", aud: AUD, nonce: nonceOf(session.publicKey) });
    const { session: jwt } = await px.proxyOAuthLogin({ oidcToken: loginToken, publicKey: session.publicKey });
    expect(await verifySessionJwtSignature(jwt, i.notarizerPublicKey)).toBe(true);
    expect(payloadOf(jwt)).toMatchObject({ organization_id: organizationId, user_id: userId });
    expect((await sdkClient(emu, session, organizationId).getWhoami({ organizationId })).userId).toBe(userId);

    const s2 = newKey();
    const t2 = await mintIdToken(emu, { sub: "dave-sub", aud: AUD, nonce: nonceOf(s2.publicKey) });
    const body = JSON.stringify({ type: "ACTIVITY_TYPE_STAMP_LOGIN", timestampMs: String(Date.now()), organizationId: i.organizationId, parameters: { publicKey: s2.publicKey } });
    const stamp = await attestedStamp(body, s2, t2, "STAMP_ATTESTED_SCHEME_P256_OIDC");
    const res = await fetch(`${emu.url}/public/v1/submit/stamp_login`, { method: "POST", headers: { "content-type": "application/json", [stamp.stampHeaderName]: stamp.stampHeaderValue }, body });
    expect(res.status).toBe(200);
    expect((await sdkClient(emu, s2, organizationId).getWhoami({ organizationId })).userId).toBe(userId);
  });

  it("oauth_login refuses a token whose nonce is not sha256(publicKey), and an unknown identity", async () => {
    const px = proxyClient(emu);
    const session = newKey();
    const wrongNonce = await mintIdToken(emu, { sub: "dave-sub", aud: AUD, nonce: nonceOf(newKey().publicKey) });
    await expect(px.proxyOAuthLogin({ oidcToken: wrongNonce, publicKey: session.publicKey })).rejects.toThrow(/nonce/);
    const stranger = await mintIdToken(emu, { sub: "nobody", aud: AUD, nonce: nonceOf(session.publicKey) });
    await expect(px.proxyOAuthLogin({ oidcToken: stranger, publicKey: session.publicKey })).rejects.toThrow(/no sub-organization/);
  });

  it("oauth2_authenticate trades a code from the emulated X provider for an id_token", async () => {
    const clientId = "x-client-proxy";
    await sdkClient(emu).createOauth2Credential({ provider: "OAUTH2_PROVIDER_X", clientId, encryptedClientSecret: "sealed-secret" });
    const verifier = "proxy-verifier-0123456789-0123456789-0123456789";
    const challenge = Buffer.from(sha256(utf8ToBytes(verifier))).toString("base64url");
    const redirectUri = "https://app.example/cb";
    const auth = await (await fetch(`${emu.url}/emulator/v1/oauth2/authorize`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ provider: "OAUTH2_PROVIDER_X", clientId, redirectUri, codeChallenge: challenge, subject: "777" }) })).json();
    const session = newKey();
    const r = await proxyPost(emu, "/v1/oauth2_authenticate", JSON.stringify({ provider: "OAUTH2_PROVIDER_X", authCode: auth.code, redirectUri, codeVerifier: verifier, nonce: nonceOf(session.publicKey), clientId }), { "X-Auth-Proxy-Config-ID": configId });
    expect(r.status).toBe(200);
    const claims = JSON.parse(Buffer.from(r.json.oidcToken.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ sub: "x:777", aud: clientId, nonce: nonceOf(session.publicKey) });
    const unknown = await proxyPost(emu, "/v1/oauth2_authenticate", JSON.stringify({ provider: "OAUTH2_PROVIDER_DISCORD", authCode: "c", redirectUri, codeVerifier: verifier, nonce: "n", clientId: "nope" }), { "X-Auth-Proxy-Config-ID": configId });
    expect(unknown.status).toBe(400);
  });
});

describe("configuration id, origins and errors", () => {
  const body = JSON.stringify({ filterType: "EMAIL", filterValue: "none@example.com" });

  it("missing config id: 400 code 3; unknown: 404 code 5; the header name is case-insensitive", async () => {
    const missing = await proxyPost(emu, "/v1/account", body, {});
    expect([missing.status, missing.json.code]).toEqual([400, 3]);
    expect(missing.json.message).toMatch(/X-Auth-Proxy-Config-ID/);
    const unknown = await proxyPost(emu, "/v1/account", body, { "X-Auth-Proxy-Config-ID": "00000000-0000-4000-8000-000000000000" });
    expect([unknown.status, unknown.json.code]).toEqual([404, 5]);
    const lower = await proxyPost(emu, "/v1/account", body, { "x-auth-proxy-config-id": configId });
    expect(lower.status).toBe(200);
    await expect(proxyClient(emu, "00000000-0000-4000-8000-000000000000").proxyGetWalletKitConfig({})).rejects.toThrow(/auth proxy config not found/);
  });

  it("a malformed body is a 400 naming the field", async () => {
    const r = await proxyPost(emu, "/v1/otp_init_v2", JSON.stringify({ contact: "a@example.com" }), { "X-Auth-Proxy-Config-ID": configId });
    expect([r.status, r.json.code]).toEqual([400, 3]);
    expect(r.json.message).toMatch(/otpType/);
  });

  it("origins: `*` echoes the origin; an origin outside the list is 403 with no CORS allow header", async () => {
    const ok = await proxyPost(emu, "/v1/account", body, { "X-Auth-Proxy-Config-ID": configId, Origin: "https://anything.example" });
    expect(ok.headers.get("access-control-allow-origin")).toBe("https://anything.example");

    // Restrict the origins with update_auth_proxy_config.
    const { store } = emu.runtime;
    const row = store.authProxyConfigs.forOrg(i.organizationId)!;
    store.authProxyConfigs.update(i.organizationId, { settings: { ...row.settings, allowedOrigins: ["https://app.example"] } }, Date.now());
    try {
      const allowed = await proxyPost(emu, "/v1/account", body, { "X-Auth-Proxy-Config-ID": configId, Origin: "https://app.example" });
      expect(allowed.status).toBe(200);
      expect(allowed.headers.get("access-control-allow-origin")).toBe("https://app.example");
      const refused = await proxyPost(emu, "/v1/account", body, { "X-Auth-Proxy-Config-ID": configId, Origin: "https://evil.example" });
      expect([refused.status, refused.json.code]).toEqual([403, 7]);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
      const preflight = await fetch(`${emu.proxyUrl}/v1/account`, { method: "OPTIONS", headers: { Origin: "https://evil.example", "Access-Control-Request-Method": "POST" } });
      expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
      const goodPreflight = await fetch(`${emu.proxyUrl}/v1/account`, { method: "OPTIONS", headers: { Origin: "https://app.example", "Access-Control-Request-Method": "POST" } });
      expect(goodPreflight.headers.get("access-control-allow-headers")).toMatch(/X-Auth-Proxy-Config-ID/);
    } finally {
      store.authProxyConfigs.update(i.organizationId, { settings: row.settings }, Date.now());
    }
  });
});
