/**
 * Spending a verification token this instance issued (verify_otp, otp_auth): at a login, a
 * sub-organization signup or a contact update. Each is live for its lifetime and used at most
 * once per usage; a token bound to a public key is spent only with a client signature over that
 * usage. Attested stamps (attested.ts) read the same tokens.
 */
import { invalidArgument, withField } from "../errors.js";
import { verifyClientSignature, verifyEs256Jwt, type ClientSignature } from "../../bundles/index.js";
import { sameEmail, samePhone } from "./contacts.js";
import { sameP256Key } from "./attested.js";
import type { VerificationTokenRow } from "../store/verification-tokens.js";
import type { DomainContext } from "../vocabulary/domain-context.js";

/**
 * Spends a verification token on a contact update (update_user_email / update_user_phone_number
 * with `verificationToken`): the token must be live, unused, issued in this organization or its
 * parent, and for exactly the new contact. The update carries no client signature, so a token
 * bound to a public key is accepted without one.
 */
export function consumeContactVerification(ctx: DomainContext, token: string, otpType: "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS", contact: string): void {
  const field = "parameters.verificationToken";
  const record = openVerificationToken(ctx, token, field, "USAGE_TYPE_LOGIN");
  const same = otpType === "OTP_TYPE_EMAIL" ? sameEmail(record.contact, contact) : samePhone(record.contact, contact);
  if (record.verificationType !== otpType || !same) throw invalidArgument(`verification token was issued for another ${otpType === "OTP_TYPE_EMAIL" ? "email address" : "phone number"}`, field);
  ctx.rt.store.verificationTokens.markUsed(record.id, ctx.now, "USAGE_TYPE_LOGIN");
}

/** A live, unused verification token this instance issued to `ctx.org` or its parent. */
function openVerificationToken(ctx: DomainContext, token: string, field: string, usage: "USAGE_TYPE_LOGIN" | "USAGE_TYPE_SIGNUP"): VerificationTokenRow {
  let claims: Record<string, unknown>;
  try {
    claims = verifyEs256Jwt(token, ctx.rt.keys.enclave.tlsFetcher.publicKey).payload;
  } catch {
    throw invalidArgument("invalid verification token", field);
  }
  const record = typeof claims.id === "string" ? ctx.rt.store.verificationTokens.get(claims.id) : undefined;
  if (!record) throw invalidArgument("invalid verification token: not issued by this emulator", field);
  if (record.expiresAt <= ctx.now) throw invalidArgument("verification token has expired", field);
  if (ctx.rt.store.verificationTokens.usedFor(record, usage) !== null) throw invalidArgument("verification token has already been used", field);
  if (record.orgId !== ctx.org.id && record.orgId !== ctx.org.parentId)
    throw invalidArgument("verification token was issued by another organization", field);
  return record;
}

/**
 * Checks a verification token this instance issued (signature, expiry, single use, issuing
 * organization) and, when the token binds a public key, the client signature over its usage.
 * Marks it used; returns its record.
 */
export function consumeVerificationToken(
  ctx: DomainContext,
  token: string,
  field: string,
  opts: { clientSignature?: ClientSignature; usage: "USAGE_TYPE_LOGIN" | "USAGE_TYPE_SIGNUP"; sessionPublicKey?: string },
): VerificationTokenRow {
  const record = openVerificationToken(ctx, token, field, opts.usage);
  if (record.publicKey) {
    const sig = opts.clientSignature;
    if (!sig) throw invalidArgument("clientSignature is required: the verification token is bound to a public key", "parameters.clientSignature");
    if (!sameP256Key(sig.publicKey, record.publicKey))
      throw invalidArgument("clientSignature public key does not match the verification token's public key", "parameters.clientSignature.publicKey");
    if (!withField("parameters", () => verifyClientSignature(sig))) throw invalidArgument("invalid client signature", "parameters.clientSignature.signature");
    let message: { type?: unknown; tokenId?: unknown; login?: { publicKey?: unknown } };
    try {
      message = JSON.parse(sig.message);
    } catch {
      throw invalidArgument("clientSignature message is not JSON", "parameters.clientSignature.message");
    }
    if (message?.type !== opts.usage || message.tokenId !== record.id)
      throw invalidArgument(`clientSignature message must be a ${opts.usage} usage of this verification token`, "parameters.clientSignature.message");
    if (opts.sessionPublicKey && !(typeof message.login?.publicKey === "string" && sameP256Key(message.login.publicKey, opts.sessionPublicKey)))
      throw invalidArgument("clientSignature message does not name the session public key", "parameters.clientSignature.message");
  }
  ctx.rt.store.verificationTokens.markUsed(record.id, ctx.now, opts.usage);
  return record;
}
