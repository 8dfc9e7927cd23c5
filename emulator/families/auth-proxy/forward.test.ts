/**
 * forward()'s types come from the generated contract: the parameters of the activity type it
 * submits and that type's result member. These checks run at compile time
 * (`npx tsc -p tsconfig.json --noEmit`): each `@ts-expect-error` line fails the build if the
 * call under it compiles. The calls are never made.
 */
import { describe, expectTypeOf, it } from "vitest";
import { forward } from "./forward.js";
import type { ProxyContext } from "../../core/vocabulary/contexts.js";

declare const px: ProxyContext;

/** The calls whose types are checked, as functions that are never called. */
function calls() {
  return {
    initOtp: () => forward(px, "init_otp", { otpType: "OTP_TYPE_EMAIL", contact: "a@example.com", appName: "App" }),
    verifyOtpFirstVersion: () => forward(px, "verify_otp", { otpId: "o", otpCode: "123456" }, { activityType: "ACTIVITY_TYPE_VERIFY_OTP" }),
    createSubOrganization: () => forward(px, "create_sub_organization", { subOrganizationName: "s", rootUsers: [], rootQuorumThreshold: 1 }),
    refused: () => {
      // @ts-expect-error `otpTyp` is not a parameter of init_otp (misspelled otpType)
      void forward(px, "init_otp", { otpTyp: "OTP_TYPE_EMAIL", contact: "a@example.com", appName: "App" });
      // @ts-expect-error init_otp's appName is required
      void forward(px, "init_otp", { otpType: "OTP_TYPE_EMAIL", contact: "a@example.com" });
      // @ts-expect-error verify_otp's current version takes encryptedOtpBundle, not otpCode
      void forward(px, "verify_otp", { otpId: "o", otpCode: "123456" });
      // @ts-expect-error otpLength is an int32: a number, not a string
      void forward(px, "init_otp", { otpType: "OTP_TYPE_EMAIL", contact: "a@example.com", appName: "App", otpLength: "6" });
      // @ts-expect-error no submit operation is named init_otps
      void forward(px, "init_otps", {});
    },
  };
}

describe("forward's types", () => {
  it("answers the result member of the activity type it submits", () => {
    const c = calls();
    // init_otp's current version (INIT_OTP_V3) answers initOtpResultV2.
    expectTypeOf(c.initOtp).returns.resolves.toEqualTypeOf<{ otpId: string; otpEncryptionTargetBundle: string }>();
    expectTypeOf(c.verifyOtpFirstVersion).returns.resolves.toEqualTypeOf<{ verificationToken: string }>();
    expectTypeOf(c.createSubOrganization).returns.resolves.toHaveProperty("subOrganizationId").toEqualTypeOf<string>();
    expectTypeOf(c.createSubOrganization).returns.resolves.not.toHaveProperty("userId");
  });

  it("takes the parameters of that activity type", () => {
    expectTypeOf(forward<"verify_otp">).parameter(2).toEqualTypeOf<{ otpId: string; encryptedOtpBundle: string; expirationSeconds?: string | undefined }>();
    expectTypeOf(forward<"verify_otp", "ACTIVITY_TYPE_VERIFY_OTP">)
      .parameter(2)
      .toEqualTypeOf<{ otpId: string; otpCode: string; expirationSeconds?: string | undefined; publicKey?: string | undefined }>();
  });
});
