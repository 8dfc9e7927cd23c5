/**
 * OTP rate limit: "3 requests per 3 minutes per unique `userIdentifier`" (tkhq/docs
 * features/authentication/email.mdx:151, sms.mdx:119), in emulated time. The docs give no
 * message: the fourth answers 429 RESOURCE_EXHAUSTED (code 8) naming parameters.userIdentifier.
 */
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { advanceClock, rawPost, refusal, sdkClient, storeCounts, submitBody, violatedField } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

describe("OTP requests per userIdentifier", () => {
  const e = useTestEmulator();
  const initOtp = (userIdentifier?: string, contact = "rate@example.com") =>
    sdkClient(e).initOtp({ otpType: "OTP_TYPE_EMAIL", contact, appName: "Rate", ...(userIdentifier ? { userIdentifier } : {}) } as never);

  it("3 within 3 minutes are sent, the 4th is refused with nothing written; 3 minutes later it is sent", async () => {
    const id = `ip-hash-${randomUUID()}`;
    for (let i = 0; i < 3; i++) expect((await initOtp(id)).otpId).toBeTruthy();
    await advanceClock(e, 2 * 60 * 1000);

    const before = storeCounts(e);
    const err = await refusal(initOtp(id, "another@example.com"));
    expect(err.code).toBe(8);
    expect(err.message).toMatch(/^Turnkey error 8: too many OTP requests: at most 3 per 3 minutes per userIdentifier/);
    expect(err.details).toEqual(expect.arrayContaining([expect.objectContaining({ turnkeyErrorCode: "RATE_LIMIT_EXCEEDED" })]));
    expect(violatedField(err)).toBe("parameters.userIdentifier");
    expect(storeCounts(e)).toEqual(before);

    const raw = await rawPost(e, "/public/v1/submit/init_otp", submitBody(e, "ACTIVITY_TYPE_INIT_OTP_V3", { otpType: "OTP_TYPE_EMAIL", contact: "rate@example.com", appName: "Rate", userIdentifier: id }));
    expect(raw.status).toBe(429);
    expect(raw.json.code).toBe(8);

    // Another identifier, or none, is not limited.
    expect((await initOtp(`ip-hash-${randomUUID()}`)).otpId).toBeTruthy();
    for (let i = 0; i < 4; i++) expect((await initOtp()).otpId).toBeTruthy();

    await advanceClock(e, 60 * 1000);
    expect((await initOtp(id)).otpId).toBeTruthy();
  });

  it("init_otp_auth counts towards the same identifier", async () => {
    const id = `ip-hash-${randomUUID()}`;
    const { subOrganizationId } = await sdkClient(e).createSubOrganization({ subOrganizationName: "otp-rate", rootQuorumThreshold: 1, rootUsers: [{ userName: "u", userEmail: "auth-rate@example.com", apiKeys: [], authenticators: [], oauthProviders: [] }] });
    for (let i = 0; i < 2; i++) await initOtp(id, "auth-rate@example.com");
    await sdkClient(e).initOtpAuth({ organizationId: subOrganizationId, otpType: "OTP_TYPE_EMAIL", contact: "auth-rate@example.com", appName: "Rate", userIdentifier: id } as never);
    const err = await refusal(sdkClient(e).initOtpAuth({ organizationId: subOrganizationId, otpType: "OTP_TYPE_EMAIL", contact: "auth-rate@example.com", appName: "Rate", userIdentifier: id } as never));
    expect(err.code).toBe(8);
  });
});
