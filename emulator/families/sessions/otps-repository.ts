import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    otps: Otps;
  }
}

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
