import type { Db } from "./db.js";
import { prep } from "./statements.js";

/** The pending import target key of a user (one per kind: "wallet" or "private_key"), sealed. */
export type ImportTargetRow = { userId: string; kind: "wallet" | "private_key"; orgId: string; targetKeySealed: string; targetPublic: string; createdAt: number };

type Raw = { user_id: string; kind: string; org_id: string; target_key_sealed: string; target_public: string; created_at: number };

export class ImportTargets {
  constructor(private readonly db: Db) {}

  get(userId: string, kind: ImportTargetRow["kind"]): ImportTargetRow | undefined {
    const r = prep(this.db, "SELECT * FROM import_targets WHERE user_id = ? AND kind = ?").get(userId, kind) as Raw | undefined;
    return r && { userId: r.user_id, kind: r.kind as ImportTargetRow["kind"], orgId: r.org_id, targetKeySealed: r.target_key_sealed, targetPublic: r.target_public, createdAt: r.created_at };
  }

  /** A new init replaces the previous pending target. */
  put(t: ImportTargetRow): void {
    prep(this.db, "INSERT OR REPLACE INTO import_targets (user_id, kind, org_id, target_key_sealed, target_public, created_at) VALUES (?, ?, ?, ?, ?, ?)")
      .run(t.userId, t.kind, t.orgId, t.targetKeySealed, t.targetPublic, t.createdAt);
  }

  delete(userId: string, kind: ImportTargetRow["kind"]): void {
    prep(this.db, "DELETE FROM import_targets WHERE user_id = ? AND kind = ?").run(userId, kind);
  }
}
