/** App proofs attached to activities that asked for them (`generateAppProofs`), in their order. */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    appProofs: AppProofs;
  }
}

export type AppProofRow = {
  activityId: string;
  orgId: string;
  /** Position in `activity.appProofs`. */
  idx: number;
  scheme: string;
  /** 130-byte ephemeral public key hex (encryption ‖ signing). */
  publicKey: string;
  proofPayload: string;
  signature: string;
  createdAt: number;
};

const rows = rowMapper<AppProofRow>();

export class AppProofs {
  constructor(private readonly db: Db) {}

  of(activityId: string): AppProofRow[] {
    return rows.readAll(prep(this.db, "SELECT * FROM app_proofs WHERE activity_id = ? ORDER BY idx").all(activityId));
  }

  has(activityId: string): boolean {
    return !!prep(this.db, "SELECT 1 FROM app_proofs WHERE activity_id = ? LIMIT 1").get(activityId);
  }

  insert(p: AppProofRow): void {
    insertRow(this.db, "app_proofs", rows, p);
  }
}
