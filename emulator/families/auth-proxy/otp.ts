/**
 * `/v1/otp_init(_v2)`, `/v1/otp_verify(_v2)`, `/v1/otp_login(_v2)`: the coordinator's
 * init_otp / verify_otp / otp_login, run by the proxy user with the OTP shape, lifetimes and
 * email/SMS settings of the configuration. A login without `organizationId` goes to the
 * verified sub-organization holding the token's contact.
 */
import { effective } from "./settings.js";
import { forward } from "./forward.js";
import type { ProxyContext } from "../../core/vocabulary/contexts.js";
import type { ProxyBody } from "../../core/vocabulary/define.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import { findSubOrganization, loginTarget, verificationTokenClaims } from "./account.js";

export async function otpInit(px: ProxyContext, b: ProxyBody<"otp_init" | "otp_init_v2">, v2: boolean): Promise<Record<string, string>> {
  const s = px.settings;
  const e = effective(s);
  const c = s.emailCustomizationParams ?? {};
  const templateId = b.emailCustomization?.templateId || s.otpTemplateId || c.templateId;
  const emailCustomization = { logoUrl: c.logoUrl, magicLinkTemplate: c.magicLinkTemplate, templateVariables: c.templateVariables, templateId };
  const r = await forward(px, "init_otp", {
    otpType: b.otpType,
    contact: b.contact,
    appName: e.appName,
    otpLength: e.otpLength,
    alphanumeric: e.otpAlphanumeric,
    expirationSeconds: String(e.otpExpirationSeconds),
    emailCustomization: Object.values(emailCustomization).some((v) => v !== undefined) ? emailCustomization : undefined,
    smsCustomization: s.smsCustomizationParams?.template ? { template: s.smsCustomizationParams.template } : undefined,
    sendFromEmailAddress: s.sendFromEmailAddress,
    sendFromEmailSenderName: s.sendFromEmailSenderName,
    replyToEmailAddress: s.replyToEmailAddress,
  });
  return v2 ? { otpId: r.otpId, otpEncryptionTargetBundle: r.otpEncryptionTargetBundle } : { otpId: r.otpId };
}

/** `/v1/otp_verify`: the code in clear (verify_otp's first version). */
export async function otpVerify(px: ProxyContext, b: ProxyBody<"otp_verify">): Promise<{ verificationToken: string }> {
  const expirationSeconds = verificationTokenLifetime(px);
  const r = await forward(px, "verify_otp", { otpId: b.otpId, otpCode: b.otpCode, publicKey: b.publicKey || undefined, expirationSeconds }, { activityType: "ACTIVITY_TYPE_VERIFY_OTP" });
  return { verificationToken: r.verificationToken };
}

/** `/v1/otp_verify_v2`: the code encrypted to the OTP's target key. */
export async function otpVerifyV2(px: ProxyContext, b: ProxyBody<"otp_verify_v2">): Promise<{ verificationToken: string }> {
  const r = await forward(px, "verify_otp", { otpId: b.otpId, encryptedOtpBundle: b.encryptedOtpBundle, expirationSeconds: verificationTokenLifetime(px) });
  return { verificationToken: r.verificationToken };
}

const verificationTokenLifetime = (px: ProxyContext) => String(effective(px.settings).verificationTokenExpirationSeconds);
const sessionLifetime = (px: ProxyContext) => String(effective(px.settings).sessionExpirationSeconds);

/** The sub-organization a login addresses: the one named, else the verified one holding the token's contact. */
function otpLoginTarget(px: ProxyContext, b: ProxyBody<"otp_login" | "otp_login_v2">): OrganizationRow {
  return loginTarget(
    px,
    b.organizationId,
    () => {
      const c = verificationTokenClaims(px, b.verificationToken, "verificationToken");
      const filterType = c.verification_type === "OTP_TYPE_SMS" ? "PHONE_NUMBER" : "EMAIL";
      return typeof c.contact === "string" ? findSubOrganization(px, filterType, c.contact) : undefined;
    },
    "verification token's contact (verified sub-organizations only)",
  );
}

/** `/v1/otp_login`: otp_login's first version, whose client signature is optional. */
export async function otpLogin(px: ProxyContext, b: ProxyBody<"otp_login">): Promise<{ session: string }> {
  const target = otpLoginTarget(px, b);
  const r = await forward(
    px,
    "otp_login",
    { verificationToken: b.verificationToken, publicKey: b.publicKey, clientSignature: b.clientSignature, invalidateExisting: b.invalidateExisting, expirationSeconds: sessionLifetime(px) },
    { target, activityType: "ACTIVITY_TYPE_OTP_LOGIN" },
  );
  return { session: r.session };
}

/** `/v1/otp_login_v2`: the current otp_login, with the client signature over the login. */
export async function otpLoginV2(px: ProxyContext, b: ProxyBody<"otp_login_v2">): Promise<{ session: string }> {
  const target = otpLoginTarget(px, b);
  const r = await forward(
    px,
    "otp_login",
    { verificationToken: b.verificationToken, publicKey: b.publicKey, clientSignature: b.clientSignature, invalidateExisting: b.invalidateExisting, expirationSeconds: sessionLifetime(px) },
    { target },
  );
  return { session: r.session };
}
