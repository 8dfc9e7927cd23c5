import { describe, expect, it } from "vitest";
import { isTurnkeyError } from "../../core/errors.js";
import { authEnabled, initialAuthFeatures, otpSwitch, requireAuthEnabled } from "./auth-features.js";
import type { OrganizationRow } from "../../core/store/organizations.js";

const org = (features: { name: string; value: string }[]): OrganizationRow => ({ id: "o", name: "o", parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features, createdAt: 0, updatedAt: 0 });

describe("authentication switches", () => {
  it("a new organization holds every switch its creation flags leave on", () => {
    expect(initialAuthFeatures().map((f) => f.name)).toEqual(["FEATURE_NAME_OTP_EMAIL_AUTH", "FEATURE_NAME_SMS_AUTH", "FEATURE_NAME_EMAIL_AUTH", "FEATURE_NAME_EMAIL_RECOVERY"]);
    expect(initialAuthFeatures({ disableSmsAuth: true, disableEmailRecovery: true, disableEmailAuth: false }).map((f) => f.name)).toEqual(["FEATURE_NAME_OTP_EMAIL_AUTH", "FEATURE_NAME_EMAIL_AUTH"]);
  });

  it("an OTP channel needs its own switch; a switch that is off is refused naming the feature and the flag", () => {
    const o = org(initialAuthFeatures({ disableOtpEmailAuth: true }));
    expect([otpSwitch("OTP_TYPE_EMAIL"), otpSwitch("OTP_TYPE_SMS")]).toEqual(["emailOtp", "sms"]);
    expect(authEnabled(o, "sms")).toBe(true);
    expect(() => requireAuthEnabled(o, "sms")).not.toThrow();
    try {
      requireAuthEnabled(o, "emailOtp");
      expect.unreachable();
    } catch (e) {
      if (!isTurnkeyError(e)) throw e;
      expect(e.code).toBe(9);
      expect(e.message).toMatch(/^email OTP authentication is disabled in organization o: feature FEATURE_NAME_OTP_EMAIL_AUTH is not set .*disableOtpEmailAuth/);
      expect(JSON.stringify(e.details)).toContain('"field":"organizationId"');
    }
  });
});
