import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper, updateRow } from "./rows.js";
import type { RpcStatus } from "../errors.js";

export type ActivityStatus =
  | "ACTIVITY_STATUS_CREATED"
  | "ACTIVITY_STATUS_PENDING"
  | "ACTIVITY_STATUS_COMPLETED"
  | "ACTIVITY_STATUS_FAILED"
  | "ACTIVITY_STATUS_CONSENSUS_NEEDED"
  | "ACTIVITY_STATUS_REJECTED"
  | "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED";

export type StoredVote = {
  id: string;
  userId: string;
  selection: "VOTE_SELECTION_APPROVED" | "VOTE_SELECTION_REJECTED";
  message: string;
  publicKey: string;
  signature: string;
  scheme: string;
  /** The voter's credential (id and CREDENTIAL_TYPE_*), for the policy keyword `credentials`. */
  credentialId?: string;
  credentialType?: string;
  createdAt: number;
};

export type ActivityRow = {
  seq: number;
  id: string;
  orgId: string;
  type: string;
  status: ActivityStatus;
  fingerprint: string;
  intent: Record<string, unknown>;
  result: Record<string, unknown>;
  failure: RpcStatus | null;
  votes: StoredVote[];
  userId: string | null;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<ActivityRow>({ json: ["intent", "result", "failure", "votes"] });

export type ActivityFilter = {
  orgId: string;
  statuses?: string[];
  types?: string[];
  /** Cursor: only activities older (before) or newer (after) than this activity id. */
  before?: number;
  after?: number;
  limit: number;
};

export class Activities {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): ActivityRow | undefined {
    const r = prep(this.db, "SELECT * FROM activities WHERE id = ? AND org_id = ?").get(id, orgId);
    return rows.read(r);
  }

  byId(id: string): ActivityRow | undefined {
    const r = prep(this.db, "SELECT * FROM activities WHERE id = ?").get(id);
    return rows.read(r);
  }

  byFingerprint(fingerprint: string): ActivityRow | undefined {
    const r = prep(this.db, "SELECT * FROM activities WHERE fingerprint = ?").get(fingerprint);
    return rows.read(r);
  }

  insert(a: Omit<ActivityRow, "seq">): ActivityRow {
    return { ...a, seq: insertRow(this.db, "activities", rows, a) };
  }

  update(id: string, patch: Partial<Pick<ActivityRow, "status" | "result" | "failure" | "votes">>, now: number): void {
    updateRow(this.db, "activities", rows, id, { ...patch, updatedAt: now });
  }

  /** Newest first. `before`/`after` are sequence numbers of cursor activities. */
  list(f: ActivityFilter): ActivityRow[] {
    const where = ["org_id = ?"];
    const args: unknown[] = [f.orgId];
    if (f.statuses?.length) {
      where.push(`status IN (${f.statuses.map(() => "?").join(",")})`);
      args.push(...f.statuses);
    }
    if (f.types?.length) {
      where.push(`type IN (${f.types.map(() => "?").join(",")})`);
      args.push(...f.types);
    }
    if (f.before !== undefined) {
      where.push("seq < ?");
      args.push(f.before);
    }
    if (f.after !== undefined) {
      where.push("seq > ?");
      args.push(f.after);
    }
    // "after" pages walk towards newer items: take the oldest ones above the cursor, then
    // present them newest first like every other page.
    const order = f.after !== undefined && f.before === undefined ? "ASC" : "DESC";
    const page = rows.readAll(prep(this.db, `SELECT * FROM activities WHERE ${where.join(" AND ")} ORDER BY seq ${order} LIMIT ?`).all(...args, f.limit));
    return order === "ASC" ? page.reverse() : page;
  }
}
