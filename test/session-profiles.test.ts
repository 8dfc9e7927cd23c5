/**
 * Session profiles through @turnkey/sdk-server: create / get / list, and logins that name one
 * (stamp_login in the parent and in a sub-organization, otp_login in a sub-organization): the
 * session JWT (checked with @turnkey/crypto) and the login key follow the profile.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { encryptOtpCodeToBundle, generateP256KeyPair, verifySessionJwtSignature } from "@turnkey/crypto";
import { getClientSignatureMessageForLogin } from "@turnkey/core";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { newP256KeyPair, rawPost, sdkClient, storeCounts, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { info, lastMail, type Info } from "./auth/support.js";

const emu = useTestEmulator();
let i: Info;
beforeAll(async () => {
  i = await info(emu);
});

const UNKNOWN = "00000000-0000-4000-8000-000000000000";
const claimsOf = (jwt: string) => JSON.parse(atob(jwt.split(".")[1]!)) as Record<string, unknown> & { exp: number };
const nowSeconds = () => Math.floor(emu.runtime.clock.now() / 1000);

/** Logs in with stamp_login; returns the JWT claims and the emulated-clock window of issuance. */
async function stampLogin(client: ReturnType<typeof sdkClient>, params: Record<string, unknown>) {
  const before = nowSeconds();
  const { session } = await client.stampLogin(params as never);
  const after = nowSeconds();
  expect(await verifySessionJwtSignature(session, i.notarizerPublicKey)).toBe(true);
  return { claims: claimsOf(session), before, after };
}

describe("create_session_profile / get_session_profile(s)", () => {
  it("round-trips a profile and lists the organization's profiles oldest first", async () => {
    const c = sdkClient(emu);
    const { sessionProfileId } = await c.createSessionProfile({ sessionProfileName: "signer", scope: "activity.action == 'SIGN'", expirationSeconds: "120", notes: "signing only" });
    const { sessionProfile } = await c.getSessionProfile({ sessionProfileId });
    expect(sessionProfile).toMatchObject({ sessionProfileId, sessionProfileName: "signer", scope: "activity.action == 'SIGN'", expirationSeconds: "120", notes: "signing only" });
    expect(Number(sessionProfile.createdAt.seconds)).toBeGreaterThan(0);
    const second = await c.createSessionProfile({ sessionProfileName: "open", scope: "true" });
    const { sessionProfiles } = await c.getSessionProfiles({});
    const ids = sessionProfiles.map((p) => p.sessionProfileId);
    expect(ids.indexOf(sessionProfileId)).toBeLessThan(ids.indexOf(second.sessionProfileId));
    const open = sessionProfiles.find((p) => p.sessionProfileId === second.sessionProfileId)!;
    expect(open.expirationSeconds).toBeUndefined();
    expect(open.notes).toBeUndefined();
  });

  it("refuses bad input naming the field, writing nothing", async () => {
    const c = sdkClient(emu);
    const cases: [Record<string, unknown>, string][] = [
      [{ sessionProfileName: "", scope: "true" }, "parameters.sessionProfileName"],
      [{ sessionProfileName: "p", scope: "activity.action ==" }, "parameters.scope"],
      [{ sessionProfileName: "p", scope: "" }, "parameters.scope"],
      [{ sessionProfileName: "p", scope: "true", expirationSeconds: "soon" }, "parameters.expirationSeconds"],
      [{ sessionProfileName: "p", scope: "true", expirationSeconds: "0" }, "parameters.expirationSeconds"],
    ];
    for (const [parameters, field] of cases) {
      const before = storeCounts(emu);
      const body = JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_SESSION_PROFILE", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters });
      const r = await rawPost(emu, "/public/v1/submit/create_session_profile", body);
      expect(r.status, JSON.stringify(parameters)).toBe(400);
      expect(JSON.stringify(r.json.details)).toContain(field);
      expect(storeCounts(emu)).toEqual(before);
    }
    await expect(c.getSessionProfile({ sessionProfileId: UNKNOWN })).rejects.toThrow(/session profile not found/);
    await expect(c.getSessionProfile({ sessionProfileId: "nope" })).rejects.toThrow(/invalid session profile UUID/);
  });
});

describe("logins with a session profile", () => {
  let capped: string;
  let uncapped: string;
  beforeAll(async () => {
    capped = (await sdkClient(emu).createSessionProfile({ sessionProfileName: "short lived", scope: "true", expirationSeconds: "120" })).sessionProfileId;
    uncapped = (await sdkClient(emu).createSessionProfile({ sessionProfileName: "long lived", scope: "activity.action != 'EXPORT'" })).sessionProfileId;
  });

  it("stamp_login: the session lasts min(intent, profile), is named after the profile, and its key records it", async () => {
    const c = sdkClient(emu);
    const k1 = newP256KeyPair();
    const a = await stampLogin(c, { publicKey: k1.publicKey, expirationSeconds: "600", sessionProfileId: capped });
    expect(a.claims).toMatchObject({ session_type: "short lived", session_profile_id: capped, scope: "true", public_key: k1.publicKey, organization_id: emu.info.organizationId });
    expect(a.claims.exp).toBeGreaterThanOrEqual(a.before + 120);
    expect(a.claims.exp).toBeLessThanOrEqual(a.after + 120);

    const k2 = newP256KeyPair();
    const b = await stampLogin(c, { publicKey: k2.publicKey, expirationSeconds: "60", sessionProfileId: capped });
    expect(b.claims.exp).toBeLessThanOrEqual(b.after + 60);
    expect(b.claims.exp).toBeGreaterThanOrEqual(b.before + 60);

    const k3 = newP256KeyPair();
    const d = await stampLogin(c, { publicKey: k3.publicKey, sessionProfileId: uncapped });
    expect(d.claims).toMatchObject({ session_type: "long lived", session_profile_id: uncapped, scope: "activity.action != 'EXPORT'" });
    expect(d.claims.exp).toBeGreaterThanOrEqual(d.before + 900);
    expect(d.claims.exp).toBeLessThanOrEqual(d.after + 900);

    const keys = (await c.getApiKeys({ userId: emu.info.rootUserId })).apiKeys;
    const byKey = (pk: string) => keys.find((k) => k.credential.publicKey === pk)!;
    expect(byKey(k1.publicKey)).toMatchObject({ expirationSeconds: "120", credential: { type: "CREDENTIAL_TYPE_LOGIN", sessionProfileId: capped } });
    expect(byKey(k2.publicKey)).toMatchObject({ expirationSeconds: "60", credential: { sessionProfileId: capped } });
    expect(byKey(k3.publicKey)).toMatchObject({ expirationSeconds: "900", credential: { sessionProfileId: uncapped } });
    // The session key stamps.
    expect((await sdkClient(emu, k1).getWhoami({})).userId).toBe(emu.info.rootUserId);

    // Without a profile: the read-write session type, no profile on the key.
    const k4 = newP256KeyPair();
    const plain = await stampLogin(c, { publicKey: k4.publicKey });
    expect(plain.claims.session_type).toBe("SESSION_TYPE_READ_WRITE");
    expect(plain.claims.session_profile_id).toBeUndefined();
    expect((await c.getApiKeys({ userId: emu.info.rootUserId })).apiKeys.find((k) => k.credential.publicKey === k4.publicKey)!.credential.sessionProfileId).toBeUndefined();
  });

  it("an unknown profile is a 404 naming the field, and nothing is written", async () => {
    const before = storeCounts(emu);
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_STAMP_LOGIN",
      timestampMs: String(Date.now()),
      organizationId: emu.info.organizationId,
      parameters: { publicKey: newP256KeyPair().publicKey, sessionProfileId: UNKNOWN },
    });
    const r = await rawPost(emu, "/public/v1/submit/stamp_login", body);
    expect(r.status).toBe(404);
    expect(r.json.message).toMatch(/session profile not found/);
    expect(JSON.stringify(r.json.details)).toContain("parameters.sessionProfileId");
    expect(storeCounts(emu)).toEqual(before);
  });

  it("a sub-organization's logins use the parent's profiles; a sub-organization cannot create one", async () => {
    const email = "profiled@example.com";
    const root = newP256KeyPair();
    const { subOrganizationId } = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "profiled",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "end user", userEmail: email, apiKeys: [{ apiKeyName: "k", publicKey: root.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const sub = sdkClient(emu, root, subOrganizationId);
    await expect(sub.createSessionProfile({ sessionProfileName: "mine", scope: "true" })).rejects.toThrow(/cannot be called by sub-organizations/);

    const k = newP256KeyPair();
    const s = await stampLogin(sub, { publicKey: k.publicKey, sessionProfileId: capped, expirationSeconds: "3600" });
    expect(s.claims).toMatchObject({ organization_id: subOrganizationId, session_profile_id: capped, session_type: "short lived" });
    expect(s.claims.exp).toBeLessThanOrEqual(s.after + 120);

    // otp_login (V2) in the sub-organization, as @turnkey/core sends it.
    const { otpId, otpEncryptionTargetBundle } = await sdkClient(emu).initOtp({ otpType: "OTP_TYPE_EMAIL", contact: email, appName: "Profiles" } as never);
    const code = (await lastMail(emu, email)).otpCode!;
    const g = generateP256KeyPair();
    const session: KeyPair = { privateKey: g.privateKey, publicKey: g.publicKey };
    const encryptedOtpBundle = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, session.publicKey, i.tlsFetcherPublicKey);
    const { verificationToken } = await sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle });
    const { message } = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: session.publicKey });
    const signature = bytesToHex(p256.sign(sha256(utf8ToBytes(message)), hexToBytes(session.privateKey), { prehash: false }));
    const clientSignature = { publicKey: session.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature };
    const before = nowSeconds();
    const { session: jwt } = await sdkClient(emu, undefined, subOrganizationId).otpLogin({ organizationId: subOrganizationId, verificationToken, publicKey: session.publicKey, clientSignature, sessionProfileId: uncapped, expirationSeconds: "300" });
    expect(await verifySessionJwtSignature(jwt, i.notarizerPublicKey)).toBe(true);
    const claims = claimsOf(jwt);
    expect(claims).toMatchObject({ organization_id: subOrganizationId, session_profile_id: uncapped, session_type: "long lived" });
    expect(claims.exp).toBeGreaterThanOrEqual(before + 300);
    expect(claims.exp).toBeLessThanOrEqual(nowSeconds() + 300);
    const userId = claims.user_id as string;
    const stored = (await sub.getApiKeys({ userId })).apiKeys.find((x) => x.credential.publicKey === session.publicKey)!;
    expect(stored).toMatchObject({ expirationSeconds: "300", credential: { sessionProfileId: uncapped } });

    // "Sub-organizations can see session profiles created by their parent organization." (session-profiles.mdx:94)
    expect((await sub.getSessionProfile({ organizationId: subOrganizationId, sessionProfileId: capped })).sessionProfile).toMatchObject({ sessionProfileId: capped, sessionProfileName: "short lived" });
  });
});

describe("a session profile's scope bounds what its session may do", () => {
  it("a session scoped to wallet creation creates a wallet; anything else is 403 and recorded FAILED; a plain session is not bounded", async () => {
    const c = sdkClient(emu);
    const { sessionProfileId } = await c.createSessionProfile({ sessionProfileName: "wallets only", scope: "activity.resource == 'WALLET' && activity.action == 'CREATE'" });
    const scoped = newP256KeyPair();
    await c.stampLogin({ publicKey: scoped.publicKey, sessionProfileId });
    const s = sdkClient(emu, scoped);
    expect((await s.createWallet({ walletName: "in scope", accounts: [] })).walletId).toMatch(/./);
    expect((await s.getWhoami({})).userId).toBe(emu.info.rootUserId); // reads are not activities

    const before = storeCounts(emu).tags;
    const err = (await s.createUserTag({ userTagName: "out of scope", userIds: [] }).catch((e: unknown) => e)) as { code?: number; message: string };
    expect(err.code).toBe(7);
    expect(err.message).toMatch(/session's profile .* does not allow this activity/);
    expect(storeCounts(emu).tags).toBe(before);
    const failed = (await c.getActivities({ filterByType: ["ACTIVITY_TYPE_CREATE_USER_TAG"] })).activities[0]!;
    expect(failed.status).toBe("ACTIVITY_STATUS_FAILED");

    // The same root user through a session without a profile is bounded by nothing but policies.
    const plain = newP256KeyPair();
    await c.stampLogin({ publicKey: plain.publicKey });
    expect((await sdkClient(emu, plain).createUserTag({ userTagName: "out of scope", userIds: [] })).userTagId).toMatch(/./);
  });
});

describe("querying session profiles from a sub-organization", () => {
  it("Sub-organizations can see session profiles created by their parent organization. (session-profiles.mdx:94)", async () => {
    const parent = sdkClient(emu);
    const { sessionProfileId } = await parent.createSessionProfile({ sessionProfileName: "for my users", scope: "activity.resource == 'WALLET'" });
    const parentProfiles = (await parent.getSessionProfiles({})).sessionProfiles;
    expect(parentProfiles.map((p) => p.sessionProfileId)).toContain(sessionProfileId);

    const root = newP256KeyPair();
    const { subOrganizationId } = await parent.createSubOrganization({
      subOrganizationName: "sees the parent's profiles",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "end user", apiKeys: [{ apiKeyName: "k", publicKey: root.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    // Read by the sub-organization's own user, and by the parent reading its sub-organization.
    for (const reader of [sdkClient(emu, root, subOrganizationId), parent]) {
      const { sessionProfiles } = await reader.getSessionProfiles({ organizationId: subOrganizationId });
      expect(sessionProfiles).toEqual(parentProfiles);
      const one = await reader.getSessionProfile({ organizationId: subOrganizationId, sessionProfileId });
      expect(one.sessionProfile).toEqual(parentProfiles.find((p) => p.sessionProfileId === sessionProfileId));
    }
    // The parent's own list is unchanged.
    expect((await parent.getSessionProfiles({})).sessionProfiles).toEqual(parentProfiles);
  });
});
