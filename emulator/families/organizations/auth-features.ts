/**
 * The organization features that switch an authentication method on and off, one place for
 * all of them: which feature each method needs, the sub-organization flag that leaves it off
 * at creation, the features an organization starts with, and the refusal when a method is
 * off. docs/fidelity.md (`auth-features-default`, `auth-feature-refusal`) records what is
 * inferred; docs/authentication.md › Authentication switches describes it.
 */
import { badRequestDetail, GrpcCode, TurnkeyError, turnkeyErrorDetail } from "../../core/errors.js";
import type { Feature, OrganizationRow } from "../../core/store/organizations.js";
import type { SubOrgSettings } from "../../core/store/sub-organizations.js";

/**
 * Each switch: the feature that enables it, the create_sub_organization flag that disables it,
 * and what the refusal calls it. tkhq/docs features/organizations.mdx:17-18 (email auth and
 * email OTP enabled by default), features/authentication/email.mdx:355-365 (removing
 * FEATURE_NAME_OTP_EMAIL_AUTH / FEATURE_NAME_EMAIL_AUTH, or `disableOtpEmailAuth` /
 * `disableEmailAuth` at creation), sms.mdx:104-108 (FEATURE_NAME_SMS_AUTH, `disableSmsAuth`);
 * email recovery's flag `disableEmailRecovery` is the published intent's.
 */
export const AUTH_SWITCHES = {
  emailOtp: { feature: "FEATURE_NAME_OTP_EMAIL_AUTH", flag: "disableOtpEmailAuth", method: "email OTP authentication" },
  sms: { feature: "FEATURE_NAME_SMS_AUTH", flag: "disableSmsAuth", method: "SMS authentication" },
  emailAuth: { feature: "FEATURE_NAME_EMAIL_AUTH", flag: "disableEmailAuth", method: "email authentication" },
  emailRecovery: { feature: "FEATURE_NAME_EMAIL_RECOVERY", flag: "disableEmailRecovery", method: "email recovery" },
} as const satisfies Record<string, { feature: string; flag: keyof SubOrgSettings; method: string }>;

export type AuthSwitch = keyof typeof AUTH_SWITCHES;

/** The switch an OTP channel needs: email codes email OTP, SMS codes SMS auth. */
export const otpSwitch = (otpType: string): AuthSwitch => (otpType === "OTP_TYPE_SMS" ? "sms" : "emailOtp");

/**
 * The features a new organization starts with: every switch on, except those its creation
 * flags turn off. A top-level organization (the fixture's) starts with all of them, as one
 * whose dashboard enabled them (UNCONFIRMED: `auth-features-default`).
 */
export function initialAuthFeatures(flags: SubOrgSettings = {}): Feature[] {
  return Object.values(AUTH_SWITCHES)
    .filter((s) => !flags[s.flag])
    .map((s) => ({ name: s.feature, value: "" }));
}

export const authEnabled = (org: Pick<OrganizationRow, "features">, which: AuthSwitch): boolean => org.features.some((f) => f.name === AUTH_SWITCHES[which].feature);

/**
 * Refuses a request whose method is off in `org`: 400, FAILED_PRECONDITION, naming the feature
 * and the flag that turn it off (no documented message: UNCONFIRMED `auth-feature-refusal`).
 */
export function requireAuthEnabled(org: OrganizationRow, which: AuthSwitch, field = "organizationId"): void {
  if (authEnabled(org, which)) return;
  const s = AUTH_SWITCHES[which];
  const message = `${s.method} is disabled in organization ${org.id}: feature ${s.feature} is not set (removed with remove_organization_feature, or the sub-organization was created with ${s.flag}); set_organization_feature enables it`;
  throw new TurnkeyError(GrpcCode.FAILED_PRECONDITION, message, [turnkeyErrorDetail("REQUEST_INVALID"), badRequestDetail(field, message)]);
}
