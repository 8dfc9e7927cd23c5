/**
 * One-time codes and verification tokens: issuing a code (init_otp, the legacy init_otp_auth)
 * with its per-userIdentifier rate limit, verifying it (verify_otp, otp_auth) into a
 * verification token, and spending a token (otp_login, contact updates, sub-organization
 * signup); email_auth's credential bundle. Codes and magic-link bundles are delivered to the
 * emulator's mailbox, never sent.
 */
import { badRequestDetail, GrpcCode, invalidArgument, notFound, turnkeyErrorDetail, withField, TurnkeyError } from "../../core/errors.js";
import { isUuid } from "../../core/ids.js";
import type { Random } from "../../core/random.js";
import {
  makeOtpEncryptionTargetBundle,
  openEncryptedOtpBundle,
  signVerificationToken,
  type ClientSignature,
} from "../../bundles/index.js";
import { findUsersByContact, sameEmail, samePhone } from "../../core/auth/contacts.js";
import { checkEmail, checkName, checkPhone } from "../../core/vocabulary/lookups.js";
import { otpSwitch, requireAuthEnabled } from "../organizations/index.js";
import { issueCredentialBundle, issueLoginSession, sessionPublicKey, type LoginParams } from "./sessions.js";
import type { OtpRow } from "./otps-repository.js";
import { consumeVerificationToken } from "../../core/auth/verification-tokens.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import type { UserRow } from "../../core/store/users.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";
import { quote } from "../../core/input-error.js";
import { deliverMail } from "../mailbox/index.js";

export const OTP_TYPES = ["OTP_TYPE_EMAIL", "OTP_TYPE_SMS"] as const;
export const DEFAULT_OTP_LENGTH = 9;
export const DEFAULT_OTP_SECONDS = 300;
export const MAX_OTP_SECONDS = 600;
export const MAX_OTP_ATTEMPTS = 3;
export const DEFAULT_TOKEN_SECONDS = 3600;
export const MAX_TOKEN_SECONDS = 86400;
/** Crockford's Base32 (the swagger's wording; the docs say "bech32 alphanumeric": UNCONFIRMED). */
export const OTP_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * The documented sandbox (tkhq/docs features/authentication/email.mdx:11-18, sms.mdx:59-66):
 * with `alphanumeric: false` and `otpLength: 6`, the contact `user@example.com` (or the phone
 * number +1 999-999-9999, in the E.164 form the SMS path accepts) is sent the code `000000`.
 * Any other shape or contact gets a random code.
 */
export const SANDBOX_OTP_CODE = "000000";
export const SANDBOX_EMAIL = "user@example.com";
export const SANDBOX_PHONE = "+19999999999";

const isSandboxContact = (otpType: string, contact: string): boolean =>
  otpType === "OTP_TYPE_SMS" ? samePhone(contact, SANDBOX_PHONE) : sameEmail(contact, SANDBOX_EMAIL);

/** The code an OTP request is sent: the sandbox's fixed code where the docs give it, else a random one. */
export function otpCodeFor(p: { otpType: string; contact: string }, length: number, alphanumeric: boolean, random: Pick<Random, "int">): string {
  if (!alphanumeric && length === 6 && isSandboxContact(p.otpType, p.contact)) return SANDBOX_OTP_CODE;
  return generateOtpCode(length, alphanumeric, random);
}

export function generateOtpCode(length: number, alphanumeric: boolean, random: Pick<Random, "int">): string {
  const alphabet = alphanumeric ? OTP_ALPHABET : "0123456789";
  return Array.from({ length }, () => alphabet[random.int(alphabet.length)]).join("");
}

const seconds = (value: string | undefined, dflt: number, max: number, field: string): number => {
  if (value === undefined || value === "") return dflt;
  if (!/^\d+$/.test(value) || Number(value) < 1 || Number(value) > max) throw invalidArgument(`expirationSeconds must be between 1 and ${max}`, field);
  return Number(value);
};

export type InitOtpParams = {
  otpType: string;
  contact: string;
  appName?: string;
  otpLength?: number;
  alphanumeric?: boolean;
  expirationSeconds?: string;
  emailCustomization?: { templateId?: string; magicLinkTemplate?: string };
  userIdentifier?: string;
};

/**
 * "3 requests per 3 minutes per unique `userIdentifier`" (tkhq/docs
 * features/authentication/email.mdx:151 and sms.mdx:119), in emulated time, over init_otp and
 * init_otp_auth in every organization; no limit without a userIdentifier.
 */
export const OTP_REQUESTS_PER_WINDOW = 3;
export const OTP_REQUEST_WINDOW_MS = 3 * 60 * 1000;

function checkOtpRequestRate(ctx: DomainContext, userIdentifier: string | undefined): void {
  if (!userIdentifier) return;
  const { count, oldest } = ctx.rt.store.otps.requestsSince(userIdentifier, ctx.now - OTP_REQUEST_WINDOW_MS);
  if (count < OTP_REQUESTS_PER_WINDOW) return;
  const retryAt = new Date(oldest! + OTP_REQUEST_WINDOW_MS).toISOString();
  const message = `too many OTP requests: at most ${OTP_REQUESTS_PER_WINDOW} per 3 minutes per userIdentifier; try again after ${retryAt}`;
  throw new TurnkeyError(GrpcCode.RESOURCE_EXHAUSTED, message, [turnkeyErrorDetail("RATE_LIMIT_EXCEEDED"), badRequestDetail("parameters.userIdentifier", message)]);
}

/**
 * Validates an init request, checks that the organization has the channel's method switched on
 * (every init_otp and init_otp_auth version, and the auth proxy's otp_init, come here), stores
 * the code (sealed) and delivers it to the mailbox.
 */
export function issueOtp(ctx: DomainContext, p: InitOtpParams, kind: OtpRow["kind"]): { otp: OtpRow; targetBundle?: string } {
  const { store, sealer } = { store: ctx.rt.store, sealer: ctx.rt.store.sealer };
  if (!(OTP_TYPES as readonly string[]).includes(p.otpType)) throw invalidArgument(`invalid otpType ${quote(p.otpType)}: expected one of ${OTP_TYPES.join(", ")}`, "parameters.otpType");
  if (p.otpType === "OTP_TYPE_EMAIL") checkEmail(p.contact, "parameters.contact");
  else checkPhone(p.contact, "parameters.contact");
  if (p.appName !== undefined) checkName(p.appName, "parameters.appName");
  const length = p.otpLength ?? DEFAULT_OTP_LENGTH;
  if (!Number.isInteger(length) || length < 6 || length > 9) throw invalidArgument("otpLength must be between 6 and 9", "parameters.otpLength");
  const alphanumeric = p.alphanumeric ?? true;
  const lifetime = seconds(p.expirationSeconds, DEFAULT_OTP_SECONDS, MAX_OTP_SECONDS, "parameters.expirationSeconds");
  requireAuthEnabled(ctx.org, otpSwitch(p.otpType));
  checkOtpRequestRate(ctx, p.userIdentifier);
  const code = otpCodeFor(p, length, alphanumeric, ctx.rt.random);
  const made = kind === "otp" ? makeOtpEncryptionTargetBundle({ tlsFetcherKey: ctx.rt.keys.enclave.tlsFetcher, random: ctx.rt.random }) : undefined;
  const otp: OtpRow = {
    id: ctx.rt.random.uuid(),
    orgId: ctx.org.id,
    kind,
    otpType: p.otpType,
    contact: p.contact,
    codeSealed: sealer.seal(code),
    targetKeySealed: made ? sealer.seal(made.targetPrivateKey) : null,
    alphanumeric,
    attempts: 0,
    expiresAt: ctx.now + lifetime * 1000,
    usedAt: null,
    createdAt: ctx.now,
    userIdentifier: p.userIdentifier || null,
  };
  store.otps.insert(otp);
  const app = p.appName || "Turnkey";
  deliverMail(ctx.rt, {
    orgId: ctx.org.id,
    contact: p.contact,
    channel: p.otpType === "OTP_TYPE_SMS" ? "sms" : "email",
    subject: `${app} verification code`,
    body: `Your ${app} verification code is ${code}. It expires in ${Math.ceil(lifetime / 60)} minutes.`,
    createdAt: ctx.now,
    extra: { kind: "otp", otpId: otp.id, otpCode: code },
  });
  return { otp, targetBundle: made?.bundle };
}

/** The open (unused, unexpired, unlocked) OTP of this organization or its parent. */
function requireOpenOtp(ctx: DomainContext, otpId: string, kind: OtpRow["kind"]): OtpRow {
  if (!isUuid(otpId)) throw invalidArgument(`invalid OTP id: ${quote(otpId)}`, "parameters.otpId");
  const otp = ctx.rt.store.otps.get(ctx.org.id, otpId) ?? (ctx.org.parentId ? ctx.rt.store.otps.get(ctx.org.parentId, otpId) : undefined);
  if (!otp || otp.kind !== kind) throw notFound(`otp not found: ${otpId}`);
  if (otp.usedAt !== null) throw invalidArgument("OTP has already been used", "parameters.otpId");
  if (otp.expiresAt <= ctx.now) throw invalidArgument("OTP has expired", "parameters.otpId");
  if (otp.attempts >= MAX_OTP_ATTEMPTS) throw invalidArgument("OTP is locked after too many failed attempts", "parameters.otpId");
  return otp;
}

/**
 * Compares a submitted code. A wrong code must still count as an attempt although the
 * activity fails, so the attempt is written and the failure is handed back as
 * `failAfterCommit` (the engine commits the handler's writes, then answers with the error).
 */
function checkCode(ctx: DomainContext, otp: OtpRow, submitted: string, field: string): TurnkeyError | undefined {
  const code = ctx.rt.store.sealer.openText(otp.codeSealed);
  const ok = otp.alphanumeric ? submitted.toUpperCase() === code : submitted === code;
  if (ok) return undefined;
  ctx.rt.store.otps.recordAttempt(otp.id);
  return invalidArgument("invalid OTP code", field);
}

/** The first user of `org` with this email or phone number; none: 404. */
export function userByContact(ctx: DomainContext, org: OrganizationRow, otpType: string, contact: string): UserRow {
  const users = findUsersByContact(ctx.rt, org.id, otpType, contact);
  if (!users.length) throw notFound(`no user found with ${otpType === "OTP_TYPE_SMS" ? "phone number" : "email"} ${contact} in organization ${org.id}`);
  return users[0]!;
}

/** init_otp: a code for the contact and the target bundle its verification is encrypted to. */
export function initOtp(ctx: DomainContext, p: InitOtpParams): { otpId: string; otpEncryptionTargetBundle: string } {
  const { otp, targetBundle } = issueOtp(ctx, p, "otp");
  return { otpId: otp.id, otpEncryptionTargetBundle: targetBundle! };
}

/** A wrong code: the attempt is written, the activity fails after the commit. */
export type FailAfterCommit = { failAfterCommit: TurnkeyError };

export type VerifyOtpParams = { otpId: string; expirationSeconds?: string; encryptedOtpBundle?: string; otpCode?: string; publicKey?: string };

/**
 * verify_otp: opens the encrypted bundle (or takes the legacy plaintext code), checks the
 * code and, when it matches, spends the OTP and issues a verification token for its contact,
 * bound to the bundle's public key when it names one.
 */
export function verifyOtp(ctx: DomainContext, p: VerifyOtpParams): { verificationToken: string } | FailAfterCommit {
  const otp = requireOpenOtp(ctx, p.otpId, "otp");
  const lifetime = seconds(p.expirationSeconds, DEFAULT_TOKEN_SECONDS, MAX_TOKEN_SECONDS, "parameters.expirationSeconds");
  let submitted: string;
  let publicKey: string | undefined;
  let field: string;
  if ("encryptedOtpBundle" in p && p.encryptedOtpBundle) {
    const bundle = p.encryptedOtpBundle;
    const opened = withField("parameters", () => openEncryptedOtpBundle(bundle, ctx.rt.store.sealer.open(otp.targetKeySealed!)));
    submitted = opened.otp_code;
    publicKey = opened.public_key;
    field = "parameters.encryptedOtpBundle";
  } else if ("otpCode" in p && p.otpCode !== undefined) {
    submitted = p.otpCode;
    publicKey = p.publicKey || undefined;
    field = "parameters.otpCode";
  } else throw invalidArgument("encryptedOtpBundle is required", "parameters.encryptedOtpBundle");
  const bound = publicKey ? sessionPublicKey(publicKey, `${field}.public_key`) : null;
  const wrong = checkCode(ctx, otp, submitted, field);
  if (wrong) return { failAfterCommit: wrong };
  ctx.rt.store.otps.markUsed(otp.id, ctx.now);
  const id = ctx.rt.random.uuid();
  const expiresAt = ctx.now + lifetime * 1000;
  ctx.rt.store.verificationTokens.insert({ id, orgId: ctx.org.id, contact: otp.contact, verificationType: otp.otpType, publicKey: bound, expiresAt, usedAt: null, createdAt: ctx.now });
  const verificationToken = signVerificationToken(
    { exp: String(expiresAt), id, organization_id: ctx.org.id, verification_type: otp.otpType, contact: otp.contact, public_key: bound ?? "" },
    ctx.rt.keys.enclave.tlsFetcher,
  );
  return { verificationToken };
}

/**
 * A login with a verification token needs its channel switched on in the organization it logs
 * into (otp_login; stamp_login with a verification-token stamp), so that a sub-organization
 * created with `disableOtpEmailAuth` / `disableSmsAuth` is closed to codes its parent sent
 * (UNCONFIRMED: `auth-feature-refusal`).
 */
export function requireOtpLoginEnabled(org: OrganizationRow, verificationType: string): void {
  requireAuthEnabled(org, otpSwitch(verificationType));
}

/** otp_login: spends a login verification token on a session for the user with its contact. */
export function otpLogin(ctx: DomainContext, p: LoginParams & { verificationToken: string; clientSignature?: ClientSignature }): string {
  const record = consumeVerificationToken(ctx, p.verificationToken, "parameters.verificationToken", {
    clientSignature: p.clientSignature,
    usage: "USAGE_TYPE_LOGIN",
    sessionPublicKey: p.publicKey,
  });
  requireOtpLoginEnabled(ctx.org, record.verificationType);
  const user = userByContact(ctx, ctx.org, record.verificationType, record.contact);
  return issueLoginSession(ctx, ctx.org, user, p);
}

/** init_otp_auth (legacy): a code only for a contact some user of the organization has. */
export function initOtpAuth(ctx: DomainContext, p: InitOtpParams): string {
  userByContact(ctx, ctx.org, p.otpType, p.contact);
  return issueOtp(ctx, p, "otp_auth").otp.id;
}

export type OtpAuthParams = { otpId: string; otpCode: string; targetPublicKey: string; apiKeyName?: string; expirationSeconds?: string; invalidateExisting?: boolean };

/** otp_auth (legacy): a right code gives the contact's user a credential bundle sealed to the target key. */
export function otpAuth(ctx: DomainContext, p: OtpAuthParams): { userId: string; apiKeyId: string; credentialBundle: string } | FailAfterCommit {
  const otp = requireOpenOtp(ctx, p.otpId, "otp_auth");
  sessionPublicKey(p.targetPublicKey, "parameters.targetPublicKey");
  const wrong = checkCode(ctx, otp, p.otpCode, "parameters.otpCode");
  if (wrong) return { failAfterCommit: wrong };
  ctx.rt.store.otps.markUsed(otp.id, ctx.now);
  const user = userByContact(ctx, ctx.org, otp.otpType, otp.contact);
  const bundle = issueCredentialBundle(ctx, {
    org: ctx.org,
    user,
    targetPublicKey: p.targetPublicKey,
    expirationSeconds: p.expirationSeconds,
    credentialType: "CREDENTIAL_TYPE_OTP_AUTH_KEY_P256",
    name: p.apiKeyName || `OTP Auth - ${ctx.now}`,
    invalidateExisting: p.invalidateExisting,
  });
  return { userId: user.id, ...bundle };
}

export type EmailAuthParams = {
  email: string;
  targetPublicKey: string;
  apiKeyName?: string;
  expirationSeconds?: string;
  invalidateExisting?: boolean;
  emailCustomization?: { appName?: string; magicLinkTemplate?: string };
};

/** email_auth: mails the user with this email a credential bundle (with a magic link when templated). */
export function emailAuth(ctx: DomainContext, p: EmailAuthParams): { userId: string; apiKeyId: string } {
  checkEmail(p.email, "parameters.email");
  requireAuthEnabled(ctx.org, "emailAuth");
  // V3's contract requires the customization's appName; V2's makes the customization optional.
  const custom = p.emailCustomization ?? {};
  if (custom.appName !== undefined) checkName(custom.appName, "parameters.emailCustomization.appName");
  const user = userByContact(ctx, ctx.org, "OTP_TYPE_EMAIL", p.email);
  const { apiKeyId, credentialBundle } = issueCredentialBundle(ctx, {
    org: ctx.org,
    user,
    targetPublicKey: p.targetPublicKey,
    expirationSeconds: p.expirationSeconds,
    credentialType: "CREDENTIAL_TYPE_EMAIL_AUTH_KEY_P256",
    name: p.apiKeyName || `Email Auth - ${ctx.now}`,
    invalidateExisting: p.invalidateExisting,
  });
  deliverBundle(ctx, p.email, custom, credentialBundle, "email_auth", `${custom.appName ?? ctx.org.name} login`);
  return { userId: user.id, apiKeyId };
}

/** Mails a credential bundle, with the magic link when a template (`%s` = bundle) is given. */
export function deliverBundle(
  ctx: DomainContext,
  email: string,
  customization: { magicLinkTemplate?: string },
  credentialBundle: string,
  kind: string,
  subject: string,
): void {
  const magicLink = customization.magicLinkTemplate ? customization.magicLinkTemplate.replace("%s", credentialBundle) : undefined;
  deliverMail(ctx.rt, {
    orgId: ctx.org.id,
    contact: email,
    channel: "email",
    subject,
    body: magicLink ? `Open this link to continue: ${magicLink}` : `Your credential bundle: ${credentialBundle}`,
    createdAt: ctx.now,
    extra: { kind, credentialBundle, ...(magicLink ? { magicLink } : {}) },
  });
}

