/**
 * One-time codes: init_otp (V3) / verify_otp (V2, plus the legacy plaintext body) /
 * otp_login (V2), the legacy init_otp_auth (V3) / otp_auth, and email_auth (V3), over
 * otp.ts.
 */
import { emailAuth, initOtp, initOtpAuth, otpAuth, otpLogin, verifyOtp } from "./otp.js";
import { defineActivity, type IntentOf } from "../../core/vocabulary/define.js";

/**
 * init_otp_auth V1 and V2 name the app in their email customization; V3 on top. Without one, the
 * mail uses the default name, as V3 without `appName` would (its contract requires the field).
 */
function appNameOnTop({ emailCustomization, ...p }: IntentOf<"ACTIVITY_TYPE_INIT_OTP_AUTH" | "ACTIVITY_TYPE_INIT_OTP_AUTH_V2">) {
  const { appName, ...customization } = emailCustomization ?? {};
  return { ...p, appName: appName as string, ...(emailCustomization ? { emailCustomization: customization } : {}) };
}

export const otpOperations = [
  defineActivity("init_otp", {
    policy: { resource: "OTP", action: "CREATE", source: "documented" },
    // Kotlin and Ruby (0.0.18) send V2, Dart (1.1.2) the first version.
    legacy: ["ACTIVITY_TYPE_INIT_OTP_V2", "ACTIVITY_TYPE_INIT_OTP"],
    parentMayInitiate: true,
    proxyForwarded: true,
    run: (ctx, p) => initOtp(ctx, p),
  }),

  defineActivity("verify_otp", {
    policy: { resource: "OTP", action: "VERIFY", source: "documented" },
    legacy: ["ACTIVITY_TYPE_VERIFY_OTP"],
    parentMayInitiate: true,
    proxyForwarded: true,
    run: (ctx, p) => verifyOtp(ctx, p),
  }),

  defineActivity("otp_login", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented", params: [["session_profile_id", "sessionProfileId", ""]] },
    legacy: ["ACTIVITY_TYPE_OTP_LOGIN"],
    parentMayInitiate: true,
    proxyForwarded: true,
    run: (ctx, p) => ({ session: otpLogin(ctx, p) }),
  }),

  defineActivity("init_otp_auth", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented", params: [["otp_length", "otpLength"]] },
    // Dart 1.1.2 sends V2. V1 has neither otpLength nor alphanumeric: V2's documented defaults (9, alphanumeric).
    olderVersions: { ACTIVITY_TYPE_INIT_OTP_AUTH_V2: { params: appNameOnTop }, ACTIVITY_TYPE_INIT_OTP_AUTH: { params: appNameOnTop } },
    parentMayInitiate: true,
    run: (ctx, p) => ({ otpId: initOtpAuth(ctx, p) }),
  }),

  defineActivity("otp_auth", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented" },
    parentMayInitiate: true,
    run: (ctx, p) => otpAuth(ctx, p),
  }),

  defineActivity("email_auth", {
    policy: { resource: "AUTH", action: "CREATE", source: "documented" },
    legacy: ["ACTIVITY_TYPE_EMAIL_AUTH_V2", "ACTIVITY_TYPE_EMAIL_AUTH"], // Dart 1.1.2 sends V2; V1 is the same intent
    parentMayInitiate: true,
    run: (ctx, p) => emailAuth(ctx, p),
  }),
];
