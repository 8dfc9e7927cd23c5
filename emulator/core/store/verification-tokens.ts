/**
 * Verification tokens (families/sessions/otps-repository.ts has the codes that earn them): the core reads them to
 * authenticate an attested stamp and to spend one (auth/verification-tokens.ts).
 */
import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper } from "./rows.js";

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
