/**
 * Switching authentication methods off (tkhq/docs features/authentication/email.mdx:355-365,
 * sms.mdx:104-108): email OTP by removing FEATURE_NAME_OTP_EMAIL_AUTH or creating the
 * sub-organization with `disableOtpEmailAuth`; SMS by removing FEATURE_NAME_SMS_AUTH or
 * `disableSmsAuth: true`; email auth (credential bundles) by FEATURE_NAME_EMAIL_AUTH or
 * `disableEmailAuth`. Sub-organizations start with them on (email.mdx:380, sms.mdx:106). Every
 * path that sends a code refuses while its method is off (init_otp V3 and older, init_otp_auth,
 * email_auth, the auth proxy's otp_init), naming the switch, with nothing written; the wallet
 * kit's config stops offering the method. The docs give no message (docs/fidelity.md
 * `auth-feature-refusal`).
 */
import { beforeAll, describe, expect, it } from "vitest";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { getClientSignatureMessageForLogin } from "@turnkey/core";
// @ts-expect-error no declaration file for the deep .mjs path (core exports the stamper only internally)
import { AttestedStamper } from "@turnkey/core/dist/__stampers__/attested/base.mjs";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { newP256KeyPair, rawPost, refusal, sdkClient, storeCounts, violatedField, type KeyPair, type SdkError } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { info, lastMail, type Info } from "../auth/support.js";
import { proxyPost } from "../proxy/support.js";

// The docs' names of the switches.
const OTP_EMAIL = "FEATURE_NAME_OTP_EMAIL_AUTH";
const SMS = "FEATURE_NAME_SMS_AUTH";
const EMAIL_AUTH = "FEATURE_NAME_EMAIL_AUTH";

const emu = useTestEmulator();
let i: Info;
beforeAll(async () => {
  i = await info(emu);
});

/** A sub-organization with one root user holding an API key, an email and a phone number, made with `flags`. */
async function subOrg(name: string, flags: Record<string, boolean>) {
  const root = newP256KeyPair();
  const email = `${name}@example.com`;
  const phone = `+1415555${String(1000 + Math.floor(Math.random() * 9000))}`;
  const { subOrganizationId } = await sdkClient(emu).createSubOrganization({
    subOrganizationName: name,
    rootQuorumThreshold: 1,
    rootUsers: [{ userName: name, userEmail: email, userPhoneNumber: phone, apiKeys: [{ apiKeyName: "root", publicKey: root.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    ...flags,
  } as never);
  return { id: subOrganizationId, root, email, phone };
}

const featuresOf = async (orgId: string, key?: KeyPair) => ((await sdkClient(emu, key, orgId).getOrganizationConfigs({ organizationId: orgId })).configs.features ?? []).map((f) => f.name);

/** The refusal of a disabled switch: 400, FAILED_PRECONDITION, naming the feature and the flag; nothing written. */
async function expectSwitchedOff(call: () => Promise<unknown>, feature: string, flag: string): Promise<SdkError> {
  const before = storeCounts(emu);
  const err = await refusal(call());
  expect(err.code).toBe(9);
  expect(err.message).toContain(feature);
  expect(err.message).toContain(flag);
  expect(violatedField(err)).toBe("organizationId");
  expect(storeCounts(emu)).toEqual(before);
  return err;
}

const initOtp = (orgId: string, otpType: string, contact: string) => sdkClient(emu, undefined, orgId).initOtp({ organizationId: orgId, otpType, contact, appName: "Switches" } as never);

describe("sub-organizations start with the methods on, and their creation flags switch them off", () => {
  it("a plain sub-organization holds all of them; disableOtpEmailAuth / disableSmsAuth / disableEmailAuth leave theirs out", async () => {
    const plain = await subOrg("plain", {});
    expect(await featuresOf(plain.id)).toEqual(expect.arrayContaining([OTP_EMAIL, SMS, EMAIL_AUTH]));
    const off = await subOrg("all-off", { disableOtpEmailAuth: true, disableSmsAuth: true, disableEmailAuth: true });
    const features = await featuresOf(off.id);
    for (const f of [OTP_EMAIL, SMS, EMAIL_AUTH]) expect(features).not.toContain(f);
  });

  it("disableOtpEmailAuth: every version of init_otp and init_otp_auth refuses email codes; SMS codes still go", async () => {
    const s = await subOrg("no-email-otp", { disableOtpEmailAuth: true });
    const err = await expectSwitchedOff(() => initOtp(s.id, "OTP_TYPE_EMAIL", s.email), OTP_EMAIL, "disableOtpEmailAuth");
    expect(err.message).toMatch(/^Turnkey error 9: email OTP authentication is disabled in organization /);
    // The older versions, as raw stamped requests.
    for (const [type, extra] of [
      ["ACTIVITY_TYPE_INIT_OTP_V2", { appName: "Switches" }],
      ["ACTIVITY_TYPE_INIT_OTP", {}],
    ] as const) {
      const before = storeCounts(emu);
      const body = JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: s.id, parameters: { otpType: "OTP_TYPE_EMAIL", contact: s.email, ...extra } });
      const r = await rawPost(emu, "/public/v1/submit/init_otp", body);
      expect(r.status).toBe(400);
      expect(r.json.message).toContain(OTP_EMAIL);
      expect(storeCounts(emu)).toEqual(before);
    }
    await expectSwitchedOff(
      () => sdkClient(emu, undefined, s.id).initOtpAuth({ organizationId: s.id, otpType: "OTP_TYPE_EMAIL", contact: s.email, appName: "Switches" } as never),
      OTP_EMAIL,
      "disableOtpEmailAuth",
    );
    expect((await initOtp(s.id, "OTP_TYPE_SMS", s.phone)).otpId).toBeTruthy();
  });

  it("disableOtpEmailAuth: a code the parent sent does not log into the sub-organization (otp_login)", async () => {
    const s = await subOrg("no-email-login", { disableOtpEmailAuth: true });
    const parent = sdkClient(emu);
    const { otpId, otpEncryptionTargetBundle } = await parent.initOtp({ otpType: "OTP_TYPE_EMAIL", contact: s.email, appName: "Switches" } as never);
    const code = (await lastMail(emu, s.email)).otpCode!;
    const g = generateP256KeyPair();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, g.publicKey, i.tlsFetcherPublicKey);
    const { verificationToken } = await parent.verifyOtp({ otpId, encryptedOtpBundle });
    const { message } = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: g.publicKey });
    const signature = bytesToHex(p256.sign(sha256(utf8ToBytes(message)), hexToBytes(g.privateKey), { prehash: false }));
    const clientSignature = { publicKey: g.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature };
    await expectSwitchedOff(
      () => sdkClient(emu, undefined, s.id).otpLogin({ organizationId: s.id, verificationToken, publicKey: g.publicKey, clientSignature }),
      OTP_EMAIL,
      "disableOtpEmailAuth",
    );
    // Nor by stamp_login with the token as an X-Stamp-Attested stamp (@turnkey/core's loginWithOtp).
    const body = JSON.stringify({ type: "ACTIVITY_TYPE_STAMP_LOGIN", timestampMs: String(Date.now()), organizationId: s.id, parameters: { publicKey: g.publicKey } });
    const signer = { sign: (payload: string, format: any) => new ApiKeyStamper({ apiPublicKey: g.publicKey, apiPrivateKey: g.privateKey }).sign(payload, format) };
    const stamper = new AttestedStamper(signer as any);
    stamper.configure({ attestedIdentity: verificationToken, publicKey: g.publicKey, scheme: "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN" } as any);
    const stamp = await stamper.stamp(body);
    const before = storeCounts(emu);
    const r = await rawPost(emu, "/public/v1/submit/stamp_login", body, { key: null, headers: { [stamp.stampHeaderName]: stamp.stampHeaderValue } });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain(OTP_EMAIL);
    expect(storeCounts(emu)).toEqual(before);
  });

  it("disableSmsAuth: SMS codes are refused; email codes still go", async () => {
    const s = await subOrg("no-sms", { disableSmsAuth: true });
    await expectSwitchedOff(() => initOtp(s.id, "OTP_TYPE_SMS", s.phone), SMS, "disableSmsAuth");
    expect((await initOtp(s.id, "OTP_TYPE_EMAIL", s.email)).otpId).toBeTruthy();
  });

  it("disableEmailAuth: email_auth is refused; email OTP is a separate switch and still goes", async () => {
    const s = await subOrg("no-email-auth", { disableEmailAuth: true });
    const target = generateP256KeyPair();
    await expectSwitchedOff(
      () => sdkClient(emu, undefined, s.id).emailAuth({ organizationId: s.id, email: s.email, targetPublicKey: target.publicKey, emailCustomization: { appName: "Switches" } } as never),
      EMAIL_AUTH,
      "disableEmailAuth",
    );
    expect((await initOtp(s.id, "OTP_TYPE_EMAIL", s.email)).otpId).toBeTruthy();
  });
});

describe("remove_organization_feature switches a method off; set_organization_feature on again", () => {
  it("in a sub-organization (its root user removes FEATURE_NAME_OTP_EMAIL_AUTH, then FEATURE_NAME_SMS_AUTH)", async () => {
    const s = await subOrg("removed", {});
    const root = sdkClient(emu, s.root, s.id);
    const removed = await root.removeOrganizationFeature({ organizationId: s.id, name: OTP_EMAIL });
    expect(removed.features.map((f) => f.name)).not.toContain(OTP_EMAIL);
    await expectSwitchedOff(() => initOtp(s.id, "OTP_TYPE_EMAIL", s.email), OTP_EMAIL, "remove_organization_feature");
    expect((await initOtp(s.id, "OTP_TYPE_SMS", s.phone)).otpId).toBeTruthy();

    await root.removeOrganizationFeature({ organizationId: s.id, name: SMS });
    await expectSwitchedOff(() => initOtp(s.id, "OTP_TYPE_SMS", s.phone), SMS, "remove_organization_feature");

    await root.setOrganizationFeature({ organizationId: s.id, name: OTP_EMAIL, value: "" });
    expect((await initOtp(s.id, "OTP_TYPE_EMAIL", s.email)).otpId).toBeTruthy();
  });
});

describe("the auth proxy's otp_init and wallet kit config follow the organization's switches", () => {
  const proxy = useTestEmulator();
  const ORIGIN = "https://app.example";
  const post = (path: string, body?: unknown) => proxyPost(proxy, path, body === undefined ? undefined : JSON.stringify(body), { "X-Auth-Proxy-Config-ID": proxy.info.authProxyConfigId!, Origin: ORIGIN });
  const providers = async () => ((await post("/v1/wallet_kit_config")).json as { enabledProviders: string[] }).enabledProviders;

  it("removing FEATURE_NAME_OTP_EMAIL_AUTH: otp_init refuses email codes with nothing written and the kit stops offering email; setting it brings both back", async () => {
    const org = sdkClient(proxy);
    expect(await providers()).toEqual(expect.arrayContaining(["email", "sms"]));
    await org.removeOrganizationFeature({ name: OTP_EMAIL });

    const before = storeCounts(proxy);
    const r = await post("/v1/otp_init", { otpType: "OTP_TYPE_EMAIL", contact: "kit@example.com" });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(9);
    expect(r.json.message).toContain(OTP_EMAIL);
    expect(r.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    expect(storeCounts(proxy)).toEqual(before);
    expect(await providers()).not.toContain("email");
    expect(await providers()).toContain("sms");
    expect((await post("/v1/otp_init", { otpType: "OTP_TYPE_SMS", contact: "+14155550123" })).status).toBe(200);

    await org.setOrganizationFeature({ name: OTP_EMAIL, value: "" });
    expect((await post("/v1/otp_init_v2", { otpType: "OTP_TYPE_EMAIL", contact: "kit@example.com" })).status).toBe(200);
    expect(await providers()).toContain("email");
  });

  it("removing FEATURE_NAME_SMS_AUTH: otp_init_v2 refuses SMS codes and the kit stops offering sms", async () => {
    await sdkClient(proxy).removeOrganizationFeature({ name: SMS });
    const before = storeCounts(proxy);
    const r = await post("/v1/otp_init_v2", { otpType: "OTP_TYPE_SMS", contact: "+14155550123" });
    expect(r.status).toBe(400);
    expect(r.json.message).toContain(SMS);
    expect(storeCounts(proxy)).toEqual(before);
    expect(await providers()).not.toContain("sms");
  });
});
