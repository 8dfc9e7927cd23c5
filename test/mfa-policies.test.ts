/**
 * MFA policies through @turnkey/sdk-server (CRUD, validation) and their enforcement: an
 * activity held in ACTIVITY_STATUS_AUTHENTICATORS_NEEDED until the proposer approves it with
 * the missing authenticator (a passkey stamp through @turnkey/http), as the MFA docs describe.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TurnkeyClient } from "@turnkey/http";
import { encryptOtpCodeToBundle } from "@turnkey/crypto";
import { newP256KeyPair, rawPost, sdkClient, stampBody, storeCounts, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { info, lastMail } from "./auth/support.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";

const emu = useTestEmulator();
let key: KeyPair;
let passkey: SoftwareAuthenticator;
let orgId: string;
let userId: string;
let authenticatorId: string;
let apiKeyId: string;
let c: ReturnType<typeof sdkClient>;

/** The same user's passkey as an @turnkey/http client's stamper. */
const passkeyClient = () =>
  new TurnkeyClient({ baseUrl: emu.url }, { stamp: async (body: string) => ({ stampHeaderName: "X-Stamp-Webauthn", stampHeaderValue: passkey.stamp(body) }) });

const step = (type: string, id?: string) => ({ any: [{ type, ...(id ? { id } : {}) }] }) as never;

beforeAll(async () => {
  key = newP256KeyPair();
  passkey = new SoftwareAuthenticator();
  const sub = await sdkClient(emu).createSubOrganization({
    subOrganizationName: "mfa sub",
    rootQuorumThreshold: 1,
    rootUsers: [
      {
        userName: "alice",
        userEmail: "alice@example.com",
        apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }],
        authenticators: [passkey.registration("pk")],
        oauthProviders: [],
      },
    ],
  });
  orgId = sub.subOrganizationId;
  userId = sub.rootUserIds![0]!;
  c = sdkClient(emu, key, orgId);
  const { user } = await c.getUser({ userId });
  authenticatorId = user.authenticators[0]!.authenticatorId;
  apiKeyId = user.apiKeys[0]!.apiKeyId;
});

describe("MFA policy CRUD", () => {
  it("creates, reads, lists in order, updates and deletes a user's MFA policies", async () => {
    const signing = await c.createMfaPolicy({
      userId,
      mfaPolicyName: "sign needs passkey",
      condition: "activity.action == 'SIGN'",
      requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_PASSKEY", authenticatorId)],
      order: 5,
      notes: "signing",
    });
    const exporting = await c.createMfaPolicy({
      userId,
      mfaPolicyName: "export needs two",
      condition: "activity.action == 'EXPORT'",
      requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_API_KEY"), { any: [{ type: "AUTHENTICATION_TYPE_PASSKEY" }, { type: "AUTHENTICATION_TYPE_EMAIL_OTP" }] }] as never,
      order: 1,
    });
    expect(signing.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");

    const { mfaPolicy } = await c.getMfaPolicy({ userId, mfaPolicyId: signing.mfaPolicyId });
    expect(mfaPolicy).toMatchObject({
      mfaPolicyId: signing.mfaPolicyId,
      mfaPolicyName: "sign needs passkey",
      condition: "activity.action == 'SIGN'",
      requiredAuthenticationMethods: [{ any: [{ type: "AUTHENTICATION_TYPE_PASSKEY", id: authenticatorId }] }],
      notes: "signing",
    });
    expect(Number(mfaPolicy.order)).toBe(5);

    const listed = await c.getMfaPolicies({ userId });
    expect(listed.mfaPolicies.map((p) => p.mfaPolicyId)).toEqual([exporting.mfaPolicyId, signing.mfaPolicyId]);
    expect((await c.getUser({ userId })).user.mfaPolicies?.map((p) => p.mfaPolicyId)).toEqual([exporting.mfaPolicyId, signing.mfaPolicyId]);

    await c.updateMfaPolicy({ userId, mfaPolicyId: signing.mfaPolicyId, mfaPolicyName: "renamed", order: 0 });
    const after = await c.getMfaPolicies({ userId });
    expect(after.mfaPolicies.map((p) => [p.mfaPolicyId, p.mfaPolicyName])).toEqual([
      [signing.mfaPolicyId, "renamed"],
      [exporting.mfaPolicyId, "export needs two"],
    ]);
    expect(after.mfaPolicies[0]!.condition).toBe("activity.action == 'SIGN'");

    for (const p of [signing, exporting]) expect((await c.deleteMfaPolicy({ userId, mfaPolicyId: p.mfaPolicyId })).mfaPolicyId).toBe(p.mfaPolicyId);
    expect((await c.getMfaPolicies({ userId })).mfaPolicies).toEqual([]);
    await expect(c.getMfaPolicy({ userId, mfaPolicyId: signing.mfaPolicyId })).rejects.toThrow(/mfa policy not found/);
    await expect(c.deleteMfaPolicy({ userId, mfaPolicyId: signing.mfaPolicyId })).rejects.toThrow(/mfa policy not found/);
  });

  it("refuses bad input naming the field, and writes nothing", async () => {
    const good = { userId, mfaPolicyName: "p", condition: "true", requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_PASSKEY")], order: 0 };
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ mfaPolicyName: " " }, "parameters.mfaPolicyName", /must not be empty/],
      [{ condition: "activity.action ==" }, "parameters.condition", /invalid policy condition/],
      [{ requiredAuthenticationMethods: [] }, "parameters.requiredAuthenticationMethods", /must not be empty/],
      [{ requiredAuthenticationMethods: [{ any: [] }] }, "parameters.requiredAuthenticationMethods[0].any", /must not be empty/],
      [{ requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_PASSKEY"), step("AUTHENTICATION_TYPE_EMAIL_OTP", "00000000-0000-4000-8000-000000000000")] }, "parameters.requiredAuthenticationMethods[1].any[0].id", /has no id/],
      [
        { requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_SMS_OTP")] },
        "parameters.requiredAuthenticationMethods[0]",
        /user \(.+\) cannot satisfy mfa policy requirement: mfa policy 'p' requires one of \["SmsOtp"\] but user does not, or will not, have a matching credential/,
      ],
      [{ requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_PASSKEY", "00000000-0000-4000-8000-000000000000")] }, "parameters.requiredAuthenticationMethods[0]", /requires one of \["Passkey"\]/],
      [{ order: "-1" }, "parameters.order", /order/],
    ];
    const before = storeCounts(emu);
    for (const [patch, field, message] of cases) {
      const body = JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_MFA_POLICY", timestampMs: String(Date.now()), organizationId: orgId, parameters: { ...good, ...patch } });
      const r = await rawPost(emu, "/public/v1/submit/create_mfa_policy", body, { key });
      expect(r.status, field).toBe(400);
      expect(r.json.message).toMatch(message);
      expect(JSON.stringify(r.json.details)).toContain(JSON.stringify(field));
    }
    await expect(c.createMfaPolicy({ ...good, userId: "00000000-0000-4000-8000-000000000000" } as never)).rejects.toThrow(/user not found/);
    expect(storeCounts(emu)).toEqual(before);
  });
});

describe("MFA enforcement", () => {
  it("holds an activity in AUTHENTICATORS_NEEDED until the proposer approves it with the missing passkey", async () => {
    const policy = await c.createMfaPolicy({
      userId,
      mfaPolicyName: "wallets need api key and passkey",
      condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
      requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_API_KEY"), step("AUTHENTICATION_TYPE_PASSKEY", authenticatorId)],
      order: 0,
    });
    const held = await c.createWallet({ walletName: "mfa wallet", accounts: [] });
    expect(held.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");
    expect((held as { walletId?: string }).walletId).toBeUndefined();
    expect((await c.getWallets({})).wallets).toEqual([]);

    const pending = await c.getMfaStatus({ activityId: held.activity.id });
    expect(pending.mfaStatuses).toEqual([
      {
        mfaPolicyId: policy.mfaPolicyId,
        userId,
        satisfied: false,
        satisfiedMethods: [{ type: "AUTHENTICATION_TYPE_API_KEY", id: apiKeyId }],
        requiredMethods: [{ any: [{ type: "AUTHENTICATION_TYPE_API_KEY" }] }, { any: [{ type: "AUTHENTICATION_TYPE_PASSKEY", id: authenticatorId }] }],
      },
    ]);
    const evaluations = await c.getPolicyEvaluations({ activityId: held.activity.id });
    expect(JSON.stringify(evaluations)).toContain("OUTCOME_REQUIRES_AUTHENTICATORS");

    // The same API key again proves nothing new.
    const again = await c.approveActivity({ fingerprint: held.activity.fingerprint });
    expect(again.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");

    const approved = await passkeyClient().approveActivity({
      type: "ACTIVITY_TYPE_APPROVE_ACTIVITY",
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { fingerprint: held.activity.fingerprint },
    });
    expect(approved.activity.id).toBe(held.activity.id);
    expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const walletId = (approved.activity.result as { createWalletResult: { walletId: string } }).createWalletResult.walletId;
    expect((await c.getWallets({})).wallets.map((w) => w.walletId)).toEqual([walletId]);

    const done = await c.getMfaStatus({ activityId: held.activity.id, userId });
    expect(done.mfaStatuses).toHaveLength(1);
    expect(done.mfaStatuses[0]!.satisfied).toBe(true);
    expect(done.mfaStatuses[0]!.satisfiedMethods).toEqual([
      { type: "AUTHENTICATION_TYPE_API_KEY", id: apiKeyId },
      { type: "AUTHENTICATION_TYPE_PASSKEY", id: authenticatorId },
    ]);
    await c.deleteMfaPolicy({ userId, mfaPolicyId: policy.mfaPolicyId });
  });

  it("takes the identical body stamped by the passkey as the second factor, and lets a stamp that meets the policy through at once", async () => {
    const policy = await c.createMfaPolicy({
      userId,
      mfaPolicyName: "tags need a passkey",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USER_TAG'",
      requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_PASSKEY")],
      order: 0,
    });
    const body = JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_USER_TAG", timestampMs: String(Date.now()), organizationId: orgId, parameters: { userTagName: "vip", userIds: [] } });
    const first = await rawPost(emu, "/public/v1/submit/create_user_tag", body, { key });
    expect(first.status).toBe(200);
    expect(first.json.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");
    expect((await c.listUserTags({})).userTags).toEqual([]);

    const second = await rawPost(emu, "/public/v1/submit/create_user_tag", body, { key: null, headers: { "X-Stamp-Webauthn": passkey.stamp(body) } });
    expect(second.json.activity.id).toBe(first.json.activity.id);
    expect(second.json.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await c.listUserTags({})).userTags.map((t) => t.tagName)).toEqual(["vip"]);

    // Stamped by the passkey from the start: the policy applies and is met by that stamp.
    const direct = await passkeyClient().createUserTag({
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      timestampMs: String(Date.now()),
      organizationId: orgId,
      parameters: { userTagName: "direct", userIds: [] },
    });
    expect(direct.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const status = await c.getMfaStatus({ activityId: direct.activity.id });
    expect(status.mfaStatuses.map((s) => [s.mfaPolicyId, s.satisfied])).toEqual([[policy.mfaPolicyId, true]]);
    // An activity no MFA policy applied to has no statuses.
    expect((await c.getMfaStatus({ activityId: policy.activity.id })).mfaStatuses).toEqual([]);
    await c.deleteMfaPolicy({ userId, mfaPolicyId: policy.mfaPolicyId });
  });
});

describe("MFA by email OTP (attested stamp)", () => {
  /** X-Stamp-Attested: the client key's stamp plus the verification token that vouches for it. */
  const attested = async (body: string, k: KeyPair, token: string) => {
    const { signature } = JSON.parse(Buffer.from((await stampBody(body, k)).stampHeaderValue, "base64url").toString());
    return Buffer.from(JSON.stringify({ publicKeyAttestation: token, scheme: "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN", publicKey: k.publicKey, signature })).toString("base64url");
  };

  it("is met by approve_activity stamped with a verification token for the user's email, once", async () => {
    const policy = await c.createMfaPolicy({
      userId,
      mfaPolicyName: "key tags need email otp",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_PRIVATE_KEY_TAG'",
      requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_EMAIL_OTP")],
      order: 0,
    });
    const held = await c.createPrivateKeyTag({ privateKeyTagName: "otp-gated", privateKeyIds: [] });
    expect(held.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");

    const clientKey = newP256KeyPair();
    const { otpId, otpEncryptionTargetBundle } = await sdkClient(emu).initOtp({ otpType: "OTP_TYPE_EMAIL", contact: "alice@example.com", appName: "MFA" } as never);
    const code = (await lastMail(emu, "alice@example.com")).otpCode!;
    const { tlsFetcherPublicKey } = await info(emu);
    const { verificationToken } = await sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle: await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, clientKey.publicKey, tlsFetcherPublicKey) });

    const approve = () => JSON.stringify({ type: "ACTIVITY_TYPE_APPROVE_ACTIVITY", timestampMs: String(Date.now()), organizationId: orgId, parameters: { fingerprint: held.activity.fingerprint } });
    const body = approve();
    const r = await rawPost(emu, "/public/v1/submit/approve_activity", body, { key: null, headers: { "X-Stamp-Attested": await attested(body, clientKey, verificationToken) } });
    expect(r.status).toBe(200);
    expect(r.json.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await c.listPrivateKeyTags({})).privateKeyTags.map((t) => t.tagName)).toContain("otp-gated");
    const status = await c.getMfaStatus({ activityId: held.activity.id });
    expect(status.mfaStatuses[0]).toMatchObject({ satisfied: true, satisfiedMethods: [{ type: "AUTHENTICATION_TYPE_EMAIL_OTP" }] });

    // The token vouched once.
    const again = approve();
    const replay = await rawPost(emu, "/public/v1/submit/approve_activity", again, { key: null, headers: { "X-Stamp-Attested": await attested(again, clientKey, verificationToken) } });
    expect(replay.status).toBe(401);
    await c.deleteMfaPolicy({ userId, mfaPolicyId: policy.mfaPolicyId });
  });
});

describe("MFA with consensus (2-of-2 root quorum)", () => {
  it("the proposer's MFA comes first, then the other root user's vote; an approver's vote waits for their own MFA", async () => {
    const aliceKey = newP256KeyPair();
    const bobKey = newP256KeyPair();
    const bobPasskey = new SoftwareAuthenticator();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "mfa quorum",
      rootQuorumThreshold: 1,
      rootUsers: [
        { userName: "alice", apiKeys: [{ apiKeyName: "a", publicKey: aliceKey.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] },
        { userName: "bob", apiKeys: [{ apiKeyName: "b", publicKey: bobKey.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [bobPasskey.registration("bp")], oauthProviders: [] },
      ],
    });
    const org = sub.subOrganizationId;
    const [aliceId, bobId] = sub.rootUserIds!;
    const alice = sdkClient(emu, aliceKey, org);
    const bob = sdkClient(emu, bobKey, org);
    const bobWithPasskey = new TurnkeyClient({ baseUrl: emu.url }, { stamp: async (body: string) => ({ stampHeaderName: "X-Stamp-Webauthn", stampHeaderValue: bobPasskey.stamp(body) }) });
    const approveAsBobPasskey = (fingerprint: string) =>
      bobWithPasskey.approveActivity({ type: "ACTIVITY_TYPE_APPROVE_ACTIVITY", timestampMs: String(Date.now()), organizationId: org, parameters: { fingerprint } });
    await alice.createMfaPolicy({
      userId: bobId!,
      mfaPolicyName: "bob: wallets need a passkey",
      condition: "activity.resource == 'WALLET'",
      requiredAuthenticationMethods: [step("AUTHENTICATION_TYPE_PASSKEY")],
      order: 0,
    });
    await alice.updateRootQuorum({ threshold: 2, userIds: [aliceId!, bobId!] });

    // Bob proposes: his MFA first; alice cannot vote before it is met.
    const proposed = await bob.createWallet({ walletName: "bob's", accounts: [] });
    expect(proposed.activity.status).toBe("ACTIVITY_STATUS_AUTHENTICATORS_NEEDED");
    await expect(alice.approveActivity({ fingerprint: proposed.activity.fingerprint })).rejects.toThrow(/waiting for its proposer's authenticators/);
    const mfaMet = await approveAsBobPasskey(proposed.activity.fingerprint);
    expect(mfaMet.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const done = await alice.approveActivity({ fingerprint: proposed.activity.fingerprint });
    expect(done.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(done.activity.votes.map((v) => v.userId).sort()).toEqual([aliceId, bobId].sort());

    // Alice proposes: bob's API-key approval is held until his passkey approves too.
    const second = await alice.createWallet({ walletName: "alice's", accounts: [] });
    expect(second.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const held = await bob.approveActivity({ fingerprint: second.activity.fingerprint });
    expect(held.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(held.activity.votes.map((v) => v.userId)).toEqual([aliceId]);
    const status = await alice.getMfaStatus({ activityId: second.activity.id });
    expect(status.mfaStatuses.map((s) => [s.userId, s.satisfied])).toEqual([[bobId, false]]);
    const counted = await approveAsBobPasskey(second.activity.fingerprint);
    expect(counted.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await alice.getWallets({})).wallets.map((w) => w.walletName).sort()).toEqual(["alice's", "bob's"]);
  });
});
