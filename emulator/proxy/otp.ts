/**
 * `/v1/otp_init(_v2)`, `/v1/otp_verify(_v2)`, `/v1/otp_login(_v2)`: the coordinator's
 * init_otp / verify_otp / otp_login, run by the proxy user with the OTP shape, lifetimes and
 * email/SMS settings of the configuration. A login without `organizationId` goes to the
 * verified sub-organization holding the token's contact.
 */
import { effective } from "../domain/auth-proxy-settings.js";
import { forward } from "./forward.js";
import type { ProxyContext } from "../operations/contexts.js";
import { findSubOrganization, loginTarget, verificationTokenClaims } from "./account.js";
import type { ClientSignature } from "../bundles/index.js";

type InitBody = { otpType: string; contact: string; emailCustomization?: { templateId?: string } };

export async function otpInit(px: ProxyContext, b: InitBody, v2: boolean): Promise<Record<string, string>> {
  const s = px.settings;
  const e = effective(s);
  const c = s.emailCustomizationParams ?? {};
  const templateId = b.emailCustomization?.templateId || s.otpTemplateId || c.templateId;
  const emailCustomization = { logoUrl: c.logoUrl, magicLinkTemplate: c.magicLinkTemplate, templateVariables: c.templateVariables, templateId };
  const r = await forward(px, "/public/v1/submit/init_otp", {
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

export async function otpVerify(px: ProxyContext, b: { otpId: string; encryptedOtpBundle?: string; otpCode?: string; publicKey?: string }): Promise<{ verificationToken: string }> {
  const expirationSeconds = String(effective(px.settings).verificationTokenExpirationSeconds);
  const r =
    b.encryptedOtpBundle !== undefined
      ? await forward(px, "/public/v1/submit/verify_otp", { otpId: b.otpId, encryptedOtpBundle: b.encryptedOtpBundle, expirationSeconds })
      : await forward(px, "/public/v1/submit/verify_otp", { otpId: b.otpId, otpCode: b.otpCode, publicKey: b.publicKey || undefined, expirationSeconds }, { activityType: "ACTIVITY_TYPE_VERIFY_OTP" });
  return { verificationToken: r.verificationToken };
}

type LoginBody = { verificationToken: string; publicKey: string; invalidateExisting?: boolean; organizationId?: string; clientSignature?: ClientSignature };

export async function otpLogin(px: ProxyContext, b: LoginBody, v2: boolean): Promise<{ session: string }> {
  const target = loginTarget(
    px,
    b.organizationId,
    () => {
      const c = verificationTokenClaims(px, b.verificationToken, "verificationToken");
      const filterType = c.verification_type === "OTP_TYPE_SMS" ? "PHONE_NUMBER" : "EMAIL";
      return typeof c.contact === "string" ? findSubOrganization(px, filterType, c.contact) : undefined;
    },
    "verification token's contact (verified sub-organizations only)",
  );
  const r = await forward(
    px,
    "/public/v1/submit/otp_login",
    {
      verificationToken: b.verificationToken,
      publicKey: b.publicKey,
      clientSignature: b.clientSignature,
      invalidateExisting: b.invalidateExisting,
      expirationSeconds: String(effective(px.settings).sessionExpirationSeconds),
    },
    { target, activityType: v2 ? undefined : "ACTIVITY_TYPE_OTP_LOGIN" },
  );
  return { session: r.session };
}
