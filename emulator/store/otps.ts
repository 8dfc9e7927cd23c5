import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper } from "./rows.js";

/** One issued one-time code. `kind` is "otp" (init_otp) or "otp_auth" (legacy init_otp_auth). */
export type OtpRow = {
  id: string;
  orgId: string;
  kind: "otp" | "otp_auth";
  otpType: string;
  contact: string;
  codeSealed: string;
  /** Sealed P-256 scalar of the encryption target (init_otp only). */
  targetKeySealed: string | null;
  alphanumeric: boolean;
  attempts: number;
  expiresAt: number;
  usedAt: number | null;
  createdAt: number;
  /** The client's `userIdentifier`, for the per-identifier request rate (null: none given). */
  userIdentifier?: string | null;
};

const rows = rowMapper<OtpRow>({ bool: ["alphanumeric"] });

export class Otps {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): OtpRow | undefined {
    const r = prep(this.db, "SELECT * FROM otps WHERE id = ? AND org_id = ?").get(id, orgId);
    return rows.read(r);
  }

  insert(o: OtpRow): void {
    insertRow(this.db, "otps", rows, o);
  }

  /** How many codes were issued for this userIdentifier after `since` (ms), in any organization. */
  requestsSince(userIdentifier: string, since: number): { count: number; oldest: number | null } {
    const r = prep(this.db, "SELECT COUNT(*) AS count, MIN(created_at) AS oldest FROM otps WHERE user_identifier = ? AND created_at > ?").get(userIdentifier, since) as { count: number; oldest: number | null };
    return r;
  }

  recordAttempt(id: string): void {
    prep(this.db, "UPDATE otps SET attempts = attempts + 1 WHERE id = ?").run(id);
  }

  markUsed(id: string, now: number): void {
    prep(this.db, "UPDATE otps SET used_at = ? WHERE id = ?").run(now, id);
  }
}

/** Verification tokens the instance issued, so that each is used at most once. */
export type VerificationTokenRow = {
  id: string;
  orgId: string;
  contact: string;
  verificationType: string;
  publicKey: string | null;
  expiresAt: number;
  /** A token may back one login and one signup (core's OTP signup logs in with the same token). */
  usedAt: number | null;
  signupUsedAt?: number | null;
  createdAt: number;
};

export type TokenUsage = "USAGE_TYPE_LOGIN" | "USAGE_TYPE_SIGNUP";

const tokens = rowMapper<VerificationTokenRow>();

export class VerificationTokens {
  constructor(private readonly db: Db) {}

  get(id: string): VerificationTokenRow | undefined {
    return tokens.read(prep(this.db, "SELECT * FROM verification_tokens WHERE id = ?").get(id));
  }

  insert(t: VerificationTokenRow): void {
    insertRow(this.db, "verification_tokens", tokens, t);
  }

  /** When the token was used for this kind of usage, or null. */
  usedFor(t: VerificationTokenRow, usage: TokenUsage): number | null {
    return (usage === "USAGE_TYPE_SIGNUP" ? t.signupUsedAt : t.usedAt) ?? null;
  }

  markUsed(id: string, now: number, usage: TokenUsage = "USAGE_TYPE_LOGIN"): void {
    const column = usage === "USAGE_TYPE_SIGNUP" ? "signup_used_at" : "used_at";
    prep(this.db, `UPDATE verification_tokens SET ${column} = ? WHERE id = ?`).run(now, id);
  }
}
