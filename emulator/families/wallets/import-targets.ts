import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    importTargets: ImportTargets;
  }
}

/** The pending import target key of a user (one per kind: "wallet" or "private_key"), sealed. */
export type ImportTargetRow = { userId: string; kind: "wallet" | "private_key"; orgId: string; targetKeySealed: string; targetPublic: string; createdAt: number };

const rows = rowMapper<ImportTargetRow>();

export class ImportTargets {
  constructor(private readonly db: Db) {}

  get(userId: string, kind: ImportTargetRow["kind"]): ImportTargetRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM import_targets WHERE user_id = ? AND kind = ?").get(userId, kind));
  }

  /** A new init replaces the previous pending target. */
  put(t: ImportTargetRow): void {
    this.delete(t.userId, t.kind);
    insertRow(this.db, "import_targets", rows, t);
  }

  delete(userId: string, kind: ImportTargetRow["kind"]): void {
    prep(this.db, "DELETE FROM import_targets WHERE user_id = ? AND kind = ?").run(userId, kind);
  }
}
