import { beforeAll, describe, expect, it } from "vitest";
import { decryptCredentialBundle, encryptOtpCodeToBundle, generateP256KeyPair, getPublicKey, verifyOtpVerificationToken, verifySessionJwtSignature } from "@turnkey/crypto";
import { decodeVerificationToken, getClientSignatureMessageForLogin } from "@turnkey/core";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { rawPost, sdkClient, storeCounts, type KeyPair } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { info, lastMail, type Info } from "./support.js";

const emu = useTestEmulator();
let i: Info;
let subOrgId: string;
const EMAIL = "otp-user@example.com";

beforeAll(async () => {
  i = await info(emu);
  subOrgId = (await sdkClient(emu).createSubOrganization({ subOrganizationName: "otp org", rootQuorumThreshold: 1, rootUsers: [{ userName: "otp user", userEmail: EMAIL, apiKeys: [], authenticators: [], oauthProviders: [] }] })).subOrganizationId;
});

const sessionKey = (): KeyPair => {
  const k = generateP256KeyPair();
  return { privateKey: k.privateKey, publicKey: k.publicKey };
};

/** Raw r‖s hex ECDSA-P256 over SHA-256(message), as core's signWithApiKey produces. */
const signMessage = (message: string, privateKeyHex: string) => bytesToHex(p256.sign(sha256(utf8ToBytes(message)), hexToBytes(privateKeyHex), { prehash: false }));

async function initOtp(params: Record<string, unknown> = {}) {
  const r = await sdkClient(emu).initOtp({ otpType: "OTP_TYPE_EMAIL", contact: EMAIL, appName: "Test App", ...params } as never);
  const mail = await lastMail(emu, EMAIL);
  return { ...r, code: mail.otpCode!, mail };
}

describe("OTP login (init_otp V3 → verify_otp V2 → otp_login V2)", () => {
  it("logs in end to end and the session key stamps whoami in the sub-org", async () => {
    const { otpId, otpEncryptionTargetBundle, code, mail } = await initOtp();
    expect(code).toMatch(/^[0-9A-Z]{9}$/);
    expect(mail).toMatchObject({ channel: "email", contact: EMAIL, otpId });
    expect(mail.body).toContain(code);

    const session = sessionKey();
    const encryptedOtpBundle = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, session.publicKey, i.tlsFetcherPublicKey);
    const { verificationToken } = await sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle });
    const claims = await verifyOtpVerificationToken(verificationToken, i.tlsFetcherPublicKey);
    expect(claims).toMatchObject({ contact: EMAIL, verification_type: "OTP_TYPE_EMAIL", organization_id: i.organizationId, public_key: session.publicKey });
    expect(decodeVerificationToken(verificationToken).public_key).toBe(session.publicKey);

    const { message } = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: session.publicKey });
    const clientSignature = { publicKey: session.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature: signMessage(message, session.privateKey) };
    const { session: jwt } = await sdkClient(emu, undefined, subOrgId).otpLogin({ organizationId: subOrgId, verificationToken, publicKey: session.publicKey, clientSignature });
    expect(await verifySessionJwtSignature(jwt, i.notarizerPublicKey)).toBe(true);
    const payload = JSON.parse(atob(jwt.split(".")[1]!));
    expect(payload).toMatchObject({ public_key: session.publicKey, organization_id: subOrgId, session_type: "SESSION_TYPE_READ_WRITE" });

    const me = await sdkClient(emu, session, subOrgId).getWhoami({ organizationId: subOrgId });
    expect(me).toMatchObject({ organizationId: subOrgId, username: "otp user", userId: payload.user_id });
  });

  it("counts wrong codes and locks the OTP after three, writing only the attempt", async () => {
    const { otpId, otpEncryptionTargetBundle, code } = await initOtp({ otpLength: 6, alphanumeric: false });
    expect(code).toMatch(/^\d{6}$/);
    const key = sessionKey();
    const wrong = code === "000000" ? "111111" : "000000";
    for (let n = 0; n < 3; n++) {
      const before = storeCounts(emu);
      const bundle = await encryptOtpCodeToBundle(wrong, otpEncryptionTargetBundle, key.publicKey, i.tlsFetcherPublicKey);
      await expect(sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle: bundle })).rejects.toThrow(/invalid OTP code/);
      expect(storeCounts(emu)).toEqual(before);
    }
    const right = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, key.publicKey, i.tlsFetcherPublicKey);
    await expect(sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle: right })).rejects.toThrow(/locked/);
  });

  it("refuses a verification token twice, and a login whose client signature names another key", async () => {
    const { otpId, otpEncryptionTargetBundle, code } = await initOtp();
    const bound = sessionKey();
    const { verificationToken } = await sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle: await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, bound.publicKey, i.tlsFetcherPublicKey) });
    const other = sessionKey();
    const { message } = getClientSignatureMessageForLogin({ verificationToken, sessionPublicKey: bound.publicKey });
    const forged = { publicKey: other.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature: signMessage(message, other.privateKey) };
    const before = storeCounts(emu);
    await expect(sdkClient(emu, undefined, subOrgId).otpLogin({ organizationId: subOrgId, verificationToken, publicKey: bound.publicKey, clientSignature: forged })).rejects.toThrow(/public key/);
    expect(storeCounts(emu)).toEqual(before);
    const good = { publicKey: bound.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature: signMessage(message, bound.privateKey) };
    await sdkClient(emu, undefined, subOrgId).otpLogin({ organizationId: subOrgId, verificationToken, publicKey: bound.publicKey, clientSignature: good });
    await expect(sdkClient(emu, undefined, subOrgId).otpLogin({ organizationId: subOrgId, verificationToken, publicKey: bound.publicKey, clientSignature: good })).rejects.toThrow(/already been used/);
  });

  it("validates init_otp: otpLength 6-9, contact format", async () => {
    for (const [params, field] of [
      [{ otpLength: 5 }, "parameters.otpLength"],
      [{ otpLength: 10 }, "parameters.otpLength"],
      [{ contact: "not-an-email" }, "parameters.contact"],
      [{ otpType: "OTP_TYPE_PIGEON" }, "parameters.otpType"],
    ] as const) {
      const body = JSON.stringify({ type: "ACTIVITY_TYPE_INIT_OTP_V3", timestampMs: String(Date.now()), organizationId: i.organizationId, parameters: { otpType: "OTP_TYPE_EMAIL", contact: EMAIL, appName: "A", ...params } });
      const r = await rawPost(emu, "/public/v1/submit/init_otp", body);
      expect(r.status).toBe(400);
      expect(r.json.details.find((d: any) => d.fieldViolations).fieldViolations[0].field).toBe(field);
    }
  });
});

describe("legacy credential-bundle flows", () => {
  it("init_otp_auth → otp_auth returns a credential bundle @turnkey/crypto opens into a working API key", async () => {
    const parentForSub = sdkClient(emu, undefined, subOrgId);
    const { otpId } = await parentForSub.initOtpAuth({ organizationId: subOrgId, otpType: "OTP_TYPE_EMAIL", contact: EMAIL, appName: "Legacy" } as never);
    const code = (await lastMail(emu, EMAIL)).otpCode!;
    const target = generateP256KeyPair();
    const r = await parentForSub.otpAuth({ organizationId: subOrgId, otpId, otpCode: code, targetPublicKey: target.publicKey } as never);
    const priv = decryptCredentialBundle(r.credentialBundle!, target.privateKey);
    const key = { privateKey: priv, publicKey: bytesToHex(getPublicKey(priv, true)) };
    expect((await sdkClient(emu, key, subOrgId).getWhoami({ organizationId: subOrgId })).userId).toBe(r.userId);
  });

  it("email_auth mails a credential bundle (with the magic link) that opens into a working API key", async () => {
    const target = generateP256KeyPair();
    const r = await sdkClient(emu, undefined, subOrgId).emailAuth({ organizationId: subOrgId, email: EMAIL, targetPublicKey: target.publicKey, emailCustomization: { appName: "Mail", magicLinkTemplate: "https://app.example/login?b=%s" } } as never);
    const mail = await lastMail(emu, EMAIL);
    expect(mail.magicLink).toBe(`https://app.example/login?b=${mail.credentialBundle}`);
    const priv = decryptCredentialBundle(mail.credentialBundle!, target.privateKey);
    const key = { privateKey: priv, publicKey: bytesToHex(getPublicKey(priv, true)) };
    const { apiKeys } = await sdkClient(emu, key, subOrgId).getApiKeys({ organizationId: subOrgId, userId: r.userId });
    expect(apiKeys.find((k) => k.apiKeyId === r.apiKeyId)?.credential).toMatchObject({ publicKey: key.publicKey, type: "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256" });
  });
});
