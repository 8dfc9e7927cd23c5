import { beforeAll, describe, expect, it } from "vitest";
import { decryptCredentialBundle, encryptOtpCodeToBundle, generateP256KeyPair, getPublicKey, verifySessionJwtSignature } from "@turnkey/crypto";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { rawPost, sdkClient, stampBody, storeCounts, type KeyPair } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { SoftwareAuthenticator } from "../software-authenticator.js";
import { info, lastMail, mintIdToken, type Info } from "./support.js";

const emu = useTestEmulator();
let i: Info;
let subOrgId: string;
let userId: string;
const AUD = "web-client";
const EMAIL = "carol@example.com";

const nonceOf = (publicKey: string) => bytesToHex(sha256(utf8ToBytes(publicKey)));
const newKey = (): KeyPair => {
  const k = generateP256KeyPair();
  return { privateKey: k.privateKey, publicKey: k.publicKey };
};
const payloadOf = (jwt: string) => JSON.parse(atob(jwt.split(".")[1]!));

beforeAll(async () => {
  i = await info(emu);
  const token = await mintIdToken(emu, { sub: "carol-sub", aud: AUD, email: EMAIL });
  const r = await sdkClient(emu).createSubOrganization({
    subOrganizationName: "carol org",
    rootQuorumThreshold: 1,
    rootUsers: [{ userName: "carol", userEmail: EMAIL, apiKeys: [], authenticators: [], oauthProviders: [{ providerName: "emu", oidcToken: token }] }],
  });
  subOrgId = r.subOrganizationId;
  userId = r.rootUserIds![0]!;
});

describe("built-in OIDC issuer", () => {
  it("serves discovery and a JWKS whose key verifies its tokens (checked with node:crypto)", async () => {
    const disco = (await (await fetch(`${i.oidcIssuer}/.well-known/openid-configuration`)).json()) as { issuer: string; jwks_uri: string };
    expect(disco.issuer).toBe(i.oidcIssuer);
    const jwks = (await (await fetch(disco.jwks_uri)).json()) as { keys: import("node:crypto").JsonWebKey[] };
    const token = await mintIdToken(emu, { sub: "s", aud: "a" });
    const [h, p, s] = token.split(".");
    const { createPublicKey, verify } = await import("node:crypto");
    const key = createPublicKey({ key: jwks.keys[0]!, format: "jwk" });
    expect(verify("sha256", Buffer.from(`${h}.${p}`), { key, dsaEncoding: "ieee-p1363" }, Buffer.from(s!, "base64url"))).toBe(true);
    expect(JSON.parse(Buffer.from(p!, "base64url").toString())).toMatchObject({ iss: i.oidcIssuer, sub: "s", aud: "a" });
  });
});

describe("oauth_login", () => {
  it("logs in with a token whose nonce is sha256(publicKey); the session key stamps whoami", async () => {
    const session = newKey();
    const oidcToken = await mintIdToken(emu, { sub: "carol-sub", aud: AUD, nonce: nonceOf(session.publicKey) });
    const { session: jwt } = await sdkClient(emu, undefined, subOrgId).oauthLogin({ organizationId: subOrgId, oidcToken, publicKey: session.publicKey });
    expect(await verifySessionJwtSignature(jwt, i.notarizerPublicKey)).toBe(true);
    expect(payloadOf(jwt)).toMatchObject({ user_id: userId, organization_id: subOrgId, public_key: session.publicKey });
    expect((await sdkClient(emu, session, subOrgId).getWhoami({ organizationId: subOrgId })).userId).toBe(userId);
  });

  it("rejects wrong nonce, wrong audience, expired token and unknown provider, writing nothing", async () => {
    const session = newKey();
    const nonce = nonceOf(session.publicKey);
    const cases: [Parameters<typeof mintIdToken>[1], number, string][] = [
      [{ sub: "carol-sub", aud: AUD, nonce: nonceOf(newKey().publicKey) }, 400, "INVALID_OIDC_TOKEN"],
      [{ sub: "carol-sub", aud: "other-client", nonce }, 404, "OAUTH2_PROVIDER_NOT_FOUND"],
      [{ sub: "carol-sub", aud: AUD, nonce, expiresInSeconds: -60 }, 400, "INVALID_OIDC_TOKEN"],
      [{ sub: "stranger", aud: AUD, nonce }, 404, "OAUTH2_PROVIDER_NOT_FOUND"],
    ];
    for (const [claims, status, code] of cases) {
      const oidcToken = await mintIdToken(emu, claims);
      const before = storeCounts(emu);
      const body = JSON.stringify({ type: "ACTIVITY_TYPE_OAUTH_LOGIN", timestampMs: String(Date.now()), organizationId: subOrgId, parameters: { oidcToken, publicKey: session.publicKey } });
      const r = await rawPost(emu, "/public/v1/submit/oauth_login", body);
      expect([r.status, r.json.details[0].turnkeyErrorCode]).toEqual([status, code]);
      expect(storeCounts(emu)).toEqual(before);
    }
  });

  it("legacy oauth returns a credential bundle @turnkey/crypto opens", async () => {
    const target = generateP256KeyPair();
    const oidcToken = await mintIdToken(emu, { sub: "carol-sub", aud: AUD, nonce: nonceOf(target.publicKey) });
    const r = await sdkClient(emu, undefined, subOrgId).oauth({ organizationId: subOrgId, oidcToken, targetPublicKey: target.publicKey } as never);
    const priv = decryptCredentialBundle(r.credentialBundle, target.privateKey);
    expect((await sdkClient(emu, { privateKey: priv, publicKey: bytesToHex(getPublicKey(priv, true)) }, subOrgId).getWhoami({ organizationId: subOrgId })).userId).toBe(userId);
  });

  it("create/get/delete oauth providers; a duplicate identity is refused", async () => {
    const sub = sdkClient(emu, undefined, subOrgId);
    const c = sdkClient(emu);
    const { userIds } = await c.createUsers({ users: [{ userName: "dave", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    const token = await mintIdToken(emu, { sub: "dave-sub", aud: AUD });
    const { providerIds } = await c.createOauthProviders({ userId: userIds[0]!, oauthProviders: [{ providerName: "emu", oidcToken: token }, { providerName: "emu-ios", oidcClaims: { iss: i.oidcIssuer, sub: "dave-sub", aud: "ios-client" } }] });
    expect((await c.getOauthProviders({ userId: userIds[0]! })).oauthProviders.map((p) => p.audience).sort()).toEqual(["ios-client", AUD]);
    await expect(c.createOauthProviders({ userId: userIds[0]!, oauthProviders: [{ providerName: "dup", oidcToken: token }] })).rejects.toThrow(/already exists/);
    await expect(c.createOauthProviders({ userId: userIds[0]!, oauthProviders: [{ providerName: "x", oidcClaims: { iss: i.oidcIssuer, sub: "someone-else", aud: AUD } }] })).rejects.toThrow(/verified oidcToken/);
    await c.deleteOauthProviders({ userId: userIds[0]!, providerIds });
    expect((await c.getOauthProviders({ userId: userIds[0]! })).oauthProviders).toEqual([]);
    expect(sub).toBeTruthy();
  });
});

function attestedHeader(body: string, key: KeyPair, scheme: string, publicKeyAttestation: string) {
  return stampBody(body, key).then((s) => {
    const { signature } = JSON.parse(Buffer.from(s.stampHeaderValue, "base64url").toString());
    return Buffer.from(JSON.stringify({ publicKeyAttestation, scheme, publicKey: key.publicKey, signature })).toString("base64url");
  });
}

describe("stamp_login", () => {
  const loginBody = (publicKey: string, organizationId: string, extra: object = {}) =>
    JSON.stringify({ type: "ACTIVITY_TYPE_STAMP_LOGIN", timestampMs: String(Date.now()), organizationId, parameters: { publicKey, ...extra } });

  it("with an API-key stamp registers an expiring login key; invalidateExisting retires the previous one", async () => {
    const k1 = newKey();
    const sub = sdkClient(emu, undefined, subOrgId);
    const root = newKey();
    await sdkClient(emu).createApiKeys({ userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "root2", publicKey: root.publicKey, curveType: "API_KEY_CURVE_P256" }] });
    const before = Math.floor(emu.runtime.clock.now() / 1000);
    const { session } = await sdkClient(emu, root).stampLogin({ publicKey: k1.publicKey, expirationSeconds: "60" });
    const after = Math.floor(emu.runtime.clock.now() / 1000);
    // The requested 60 s from the emulator's clock at issuance.
    expect(payloadOf(session).exp).toBeGreaterThanOrEqual(before + 60);
    expect(payloadOf(session).exp).toBeLessThanOrEqual(after + 60);
    const k2 = newKey();
    await sdkClient(emu, root).stampLogin({ publicKey: k2.publicKey, invalidateExisting: true });
    const keys = (await sdkClient(emu).getApiKeys({ userId: emu.info.rootUserId })).apiKeys.filter((k) => k.credential.type === "CREDENTIAL_TYPE_LOGIN");
    expect(keys.map((k) => k.credential.publicKey)).toEqual([k2.publicKey]);
    expect(keys[0]!.expirationSeconds).toBe("900");
    expect(sub).toBeTruthy();
  });

  it("with an X-Stamp-Attested OIDC stamp logs the provider's user into the sub-org", async () => {
    const session = newKey();
    const token = await mintIdToken(emu, { sub: "carol-sub", aud: AUD, nonce: nonceOf(session.publicKey) });
    const body = loginBody(session.publicKey, subOrgId);
    const r = await rawPost(emu, "/public/v1/submit/stamp_login", body, { key: null, headers: { "X-Stamp-Attested": await attestedHeader(body, session, "STAMP_ATTESTED_SCHEME_P256_OIDC", token) } });
    expect(r.status).toBe(200);
    const jwt = r.json.activity.result.stampLoginResult.session;
    expect(payloadOf(jwt)).toMatchObject({ organization_id: subOrgId, user_id: userId });
    expect((await sdkClient(emu, session, subOrgId).getWhoami({ organizationId: subOrgId })).userId).toBe(userId);
    // The same stamp cannot authorize anything but stamp_login.
    const other = JSON.stringify({ organizationId: subOrgId });
    const refused = await rawPost(emu, "/public/v1/query/whoami", other, { key: null, headers: { "X-Stamp-Attested": await attestedHeader(other, session, "STAMP_ATTESTED_SCHEME_P256_OIDC", token) } });
    expect(refused.status).toBe(401);
  });

  it("with an X-Stamp-Attested verification-token stamp (OTP), single use; a foreign key is refused", async () => {
    const session = newKey();
    const { otpId, otpEncryptionTargetBundle } = await sdkClient(emu).initOtp({ otpType: "OTP_TYPE_EMAIL", contact: EMAIL, appName: "A" } as never);
    const code = (await lastMail(emu, EMAIL)).otpCode!;
    const { verificationToken } = await sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle: await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, session.publicKey, i.tlsFetcherPublicKey) });
    const stranger = newKey();
    const b0 = loginBody(stranger.publicKey, subOrgId);
    const wrongKey = await rawPost(emu, "/public/v1/submit/stamp_login", b0, { key: null, headers: { "X-Stamp-Attested": await attestedHeader(b0, stranger, "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN", verificationToken) } });
    expect(wrongKey.status).toBe(401);
    const body = loginBody(session.publicKey, subOrgId);
    const ok = await rawPost(emu, "/public/v1/submit/stamp_login", body, { key: null, headers: { "X-Stamp-Attested": await attestedHeader(body, session, "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN", verificationToken) } });
    expect(ok.status).toBe(200);
    expect(await verifySessionJwtSignature(ok.json.activity.result.stampLoginResult.session, i.notarizerPublicKey)).toBe(true);
    const again = loginBody(session.publicKey, subOrgId, { expirationSeconds: "100" });
    const replay = await rawPost(emu, "/public/v1/submit/stamp_login", again, { key: null, headers: { "X-Stamp-Attested": await attestedHeader(again, session, "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN", verificationToken) } });
    expect(replay.status).toBe(401);
  });
});

describe("read-write session and recovery", () => {
  it("create_read_write_session returns a credential bundle for a working session key", async () => {
    const target = generateP256KeyPair();
    const r = await sdkClient(emu).createReadWriteSession({ targetPublicKey: target.publicKey, expirationSeconds: "300" });
    const priv = decryptCredentialBundle(r.credentialBundle, target.privateKey);
    const key = { privateKey: priv, publicKey: bytesToHex(getPublicKey(priv, true)) };
    expect((await sdkClient(emu, key).getWhoami({})).userId).toBe(r.userId);
    const stored = (await sdkClient(emu).getApiKey({ apiKeyId: r.apiKeyId })).apiKey;
    expect(stored.credential.type).toBe("CREDENTIAL_TYPE_READ_WRITE_SESSION_KEY_P256");
  });

  it("init_user_email_recovery mails a recovery bundle; recover_user with it adds a passkey", async () => {
    const target = generateP256KeyPair();
    await sdkClient(emu, undefined, subOrgId).initUserEmailRecovery({ organizationId: subOrgId, email: EMAIL, targetPublicKey: target.publicKey, emailCustomization: { appName: "Rec" } } as never);
    const mail = await lastMail(emu, EMAIL);
    const priv = decryptCredentialBundle(mail.credentialBundle!, target.privateKey);
    const recoveryKey = { privateKey: priv, publicKey: bytesToHex(getPublicKey(priv, true)) };
    const passkey = new SoftwareAuthenticator();
    const { authenticatorId } = await sdkClient(emu, recoveryKey, subOrgId).recoverUser({ organizationId: subOrgId, userId, authenticator: passkey.registration("recovered") });
    expect(authenticatorId).toHaveLength(1);
    const body = JSON.stringify({ organizationId: subOrgId });
    const r = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: { "X-Stamp-Webauthn": passkey.stamp(body) } });
    expect(r.json.userId).toBe(userId);
    // The recovery key is spent.
    await expect(sdkClient(emu, recoveryKey, subOrgId).getWhoami({ organizationId: subOrgId })).rejects.toThrow();
  });
});
