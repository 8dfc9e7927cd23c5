/**
 * The OTP sandbox (tkhq/docs features/authentication/email.mdx:11-18, sms.mdx:59-66): with
 * `alphanumeric` false and `otpLength` 6, the contact user@example.com (or the phone number
 * +1 999-999-9999) takes the code 000000. Through @turnkey/sdk-server (init_otp V3, verify_otp,
 * otp_login), the older init_otp / verify_otp / otp_login versions as raw stamped requests, and
 * the auth proxy as a browser calls it (config-id header, allowed Origin). Any other code is
 * refused; any other shape or contact gets a random code; the mailbox still shows the message.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { getClientSignatureMessageForLogin } from "@turnkey/core";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { rawPost, refusal, sdkClient, submitBody, type KeyPair } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { info, lastMail, type Info } from "./support.js";
import { proxyPost } from "../proxy/support.js";

// The docs' sandbox, as they write it.
const SANDBOX_EMAIL = "user@example.com";
const SANDBOX_PHONE_AS_DOCUMENTED = "+1 999-999-9999";
/** The same number in the E.164 form init_otp accepts. */
const SANDBOX_PHONE = SANDBOX_PHONE_AS_DOCUMENTED.replace(/[^\d+]/g, "");
const SANDBOX_CODE = "000000";
const SANDBOX_SHAPE = { otpLength: 6, alphanumeric: false };

const emu = useTestEmulator();
let i: Info;
let subOrgId: string;

beforeAll(async () => {
  i = await info(emu);
  subOrgId = (
    await sdkClient(emu).createSubOrganization({
      subOrganizationName: "sandbox",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "sandbox user", userEmail: SANDBOX_EMAIL, userPhoneNumber: SANDBOX_PHONE, apiKeys: [], authenticators: [], oauthProviders: [] }],
    })
  ).subOrganizationId;
});

const sessionKey = (): KeyPair => {
  const k = generateP256KeyPair();
  return { privateKey: k.privateKey, publicKey: k.publicKey };
};
const signMessage = (message: string, privateKeyHex: string) => bytesToHex(p256.sign(sha256(utf8ToBytes(message)), hexToBytes(privateKeyHex), { prehash: false }));
const clientSignatureFor = (verificationToken: string, key: KeyPair) => {
  const { message } = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: key.publicKey });
  return { publicKey: key.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature: signMessage(message, key.privateKey) };
};

type Channel = { otpType: "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS"; contact: string };
const CHANNELS: Channel[] = [
  { otpType: "OTP_TYPE_EMAIL", contact: SANDBOX_EMAIL },
  { otpType: "OTP_TYPE_SMS", contact: SANDBOX_PHONE },
];

describe("the sandbox contacts take 000000 through @turnkey/sdk-server", () => {
  for (const channel of CHANNELS) {
    it(`${channel.otpType} ${channel.contact}: another code is refused, 000000 logs in, and the mailbox shows it`, async () => {
      const parent = sdkClient(emu);
      const { otpId, otpEncryptionTargetBundle } = await parent.initOtp({ ...channel, appName: "Sandbox", ...SANDBOX_SHAPE });
      const mail = await lastMail(emu, channel.contact);
      expect(mail).toMatchObject({ otpId, otpCode: SANDBOX_CODE, channel: channel.otpType === "OTP_TYPE_SMS" ? "sms" : "email" });
      expect(mail.body).toContain(SANDBOX_CODE);

      const key = sessionKey();
      const wrong = await encryptOtpCodeToBundle("123456", otpEncryptionTargetBundle, key.publicKey, i.tlsFetcherPublicKey);
      expect((await refusal(parent.verifyOtp({ otpId, encryptedOtpBundle: wrong }))).message).toMatch(/invalid OTP code/);

      const right = await encryptOtpCodeToBundle(SANDBOX_CODE, otpEncryptionTargetBundle, key.publicKey, i.tlsFetcherPublicKey);
      const { verificationToken } = await parent.verifyOtp({ otpId, encryptedOtpBundle: right });
      const { session } = await sdkClient(emu, undefined, subOrgId).otpLogin({ organizationId: subOrgId, verificationToken, publicKey: key.publicKey, clientSignature: clientSignatureFor(verificationToken, key) });
      expect(JSON.parse(atob(session.split(".")[1]!))).toMatchObject({ organization_id: subOrgId, public_key: key.publicKey });
      expect(await sdkClient(emu, key, subOrgId).getWhoami({ organizationId: subOrgId })).toMatchObject({ organizationId: subOrgId, username: "sandbox user" });
    });
  }

  it("the older versions: init_otp V1 → verify_otp V1 (the code in clear) → otp_login V1, as raw stamped requests", async () => {
    const init = await rawPost(emu, "/public/v1/submit/init_otp", submitBody(emu, "ACTIVITY_TYPE_INIT_OTP", { otpType: "OTP_TYPE_EMAIL", contact: SANDBOX_EMAIL, ...SANDBOX_SHAPE }));
    expect(init.status).toBe(200);
    const otpId = init.json.activity.result.initOtpResult.otpId as string;
    expect((await lastMail(emu, SANDBOX_EMAIL)).otpCode).toBe(SANDBOX_CODE);

    const wrong = await rawPost(emu, "/public/v1/submit/verify_otp", submitBody(emu, "ACTIVITY_TYPE_VERIFY_OTP", { otpId, otpCode: "999999" }));
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toMatch(/invalid OTP code/);
    const verified = await rawPost(emu, "/public/v1/submit/verify_otp", submitBody(emu, "ACTIVITY_TYPE_VERIFY_OTP", { otpId, otpCode: SANDBOX_CODE }));
    expect(verified.status).toBe(200);
    const verificationToken = verified.json.activity.result.verifyOtpResult.verificationToken as string;

    const key = sessionKey();
    const login = await rawPost(emu, "/public/v1/submit/otp_login", submitBody(emu, "ACTIVITY_TYPE_OTP_LOGIN", { verificationToken, publicKey: key.publicKey }, { organizationId: subOrgId }));
    expect(login.status).toBe(200);
    expect(await sdkClient(emu, key, subOrgId).getWhoami({ organizationId: subOrgId })).toMatchObject({ organizationId: subOrgId });
  });

  it("init_otp_auth / otp_auth (legacy) takes 000000 too", async () => {
    const c = sdkClient(emu, undefined, subOrgId);
    const { otpId } = await c.initOtpAuth({ organizationId: subOrgId, otpType: "OTP_TYPE_SMS", contact: SANDBOX_PHONE, appName: "Legacy", ...SANDBOX_SHAPE } as never);
    expect((await lastMail(emu, SANDBOX_PHONE)).otpCode).toBe(SANDBOX_CODE);
    const target = generateP256KeyPair();
    expect((await c.otpAuth({ organizationId: subOrgId, otpId, otpCode: SANDBOX_CODE, targetPublicKey: target.publicKey } as never)).credentialBundle).toBeTruthy();
  });
});

describe("outside the documented conditions the code is random", () => {
  const cases: [string, Channel, Record<string, unknown>, RegExp][] = [
    ["9 digits (the default length)", CHANNELS[0]!, { otpLength: 9, alphanumeric: false }, /^\d{9}$/],
    ["alphanumeric (the default)", CHANNELS[0]!, { otpLength: 6 }, /^[0-9A-Z]{6}$/],
    ["7 digits by SMS", CHANNELS[1]!, { otpLength: 7, alphanumeric: false }, /^\d{7}$/],
    ["another email", { otpType: "OTP_TYPE_EMAIL", contact: "someone-else@example.com" }, SANDBOX_SHAPE, /^\d{6}$/],
    ["another phone number", { otpType: "OTP_TYPE_SMS", contact: "+19999999998" }, SANDBOX_SHAPE, /^\d{6}$/],
  ];
  for (const [what, channel, shape, form] of cases) {
    it(`${what}: a random code, and 000000 is refused`, async () => {
      const parent = sdkClient(emu);
      const { otpId, otpEncryptionTargetBundle } = await parent.initOtp({ ...channel, appName: "Sandbox", ...shape });
      const code = (await lastMail(emu, channel.contact)).otpCode!;
      expect(code).toMatch(form);
      expect(code).not.toBe(SANDBOX_CODE); // a 6-digit random code is 000000 once in a million
      const key = sessionKey();
      const zeros = await encryptOtpCodeToBundle(SANDBOX_CODE, otpEncryptionTargetBundle, key.publicKey, i.tlsFetcherPublicKey);
      expect((await refusal(parent.verifyOtp({ otpId, encryptedOtpBundle: zeros }))).message).toMatch(/invalid OTP code/);
    });
  }
});

describe("the sandbox contacts take 000000 through the auth proxy (fetch, config id, allowed Origin)", () => {
  const ORIGIN = "https://app.example";
  const post = (path: string, body: unknown) => proxyPost(emu, path, JSON.stringify(body), { "X-Auth-Proxy-Config-ID": emu.info.authProxyConfigId!, Origin: ORIGIN });

  it("email: otp_init_v2 → otp_verify_v2 with 000000 → otp_login_v2 (the fixture's config: 6 digits, not alphanumeric)", async () => {
    const init = await post("/v1/otp_init_v2", { otpType: "OTP_TYPE_EMAIL", contact: SANDBOX_EMAIL });
    expect(init.status).toBe(200);
    expect(init.headers.get("access-control-allow-origin")).toBe(ORIGIN);
    const { otpId, otpEncryptionTargetBundle } = init.json;
    expect((await lastMail(emu, SANDBOX_EMAIL)).otpCode).toBe(SANDBOX_CODE);

    const key = sessionKey();
    const wrong = await post("/v1/otp_verify_v2", { otpId, encryptedOtpBundle: await encryptOtpCodeToBundle("000001", otpEncryptionTargetBundle, key.publicKey, i.tlsFetcherPublicKey) });
    expect(wrong.status).toBe(400);
    expect(wrong.json.message).toMatch(/invalid OTP code/);
    const verified = await post("/v1/otp_verify_v2", { otpId, encryptedOtpBundle: await encryptOtpCodeToBundle(SANDBOX_CODE, otpEncryptionTargetBundle, key.publicKey, i.tlsFetcherPublicKey) });
    expect(verified.status).toBe(200);
    const { verificationToken } = verified.json;
    const login = await post("/v1/otp_login_v2", { verificationToken, publicKey: key.publicKey, organizationId: subOrgId, clientSignature: clientSignatureFor(verificationToken, key) });
    expect(login.status).toBe(200);
    expect(JSON.parse(atob(login.json.session.split(".")[1]!))).toMatchObject({ organization_id: subOrgId, public_key: key.publicKey });
    expect(await sdkClient(emu, key, subOrgId).getWhoami({ organizationId: subOrgId })).toMatchObject({ organizationId: subOrgId });
  });

  it("SMS: otp_init → otp_verify with the code in clear → otp_login", async () => {
    const init = await post("/v1/otp_init", { otpType: "OTP_TYPE_SMS", contact: SANDBOX_PHONE });
    expect(init.status).toBe(200);
    const { otpId } = init.json;
    expect((await lastMail(emu, SANDBOX_PHONE)).otpCode).toBe(SANDBOX_CODE);
    expect((await post("/v1/otp_verify", { otpId, otpCode: "111111" })).status).toBe(400);
    const verified = await post("/v1/otp_verify", { otpId, otpCode: SANDBOX_CODE });
    expect(verified.status).toBe(200);
    const key = sessionKey();
    const login = await post("/v1/otp_login", { verificationToken: verified.json.verificationToken, publicKey: key.publicKey, organizationId: subOrgId });
    expect(login.status).toBe(200);
    expect(await sdkClient(emu, key, subOrgId).getWhoami({ organizationId: subOrgId })).toMatchObject({ organizationId: subOrgId });
  });
});
