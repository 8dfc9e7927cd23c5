import type { Db } from "./db.js";
import { prep } from "./statements.js";
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

type Raw = {
  seq: number;
  id: string;
  org_id: string;
  type: string;
  status: ActivityStatus;
  fingerprint: string;
  intent: string;
  result: string;
  failure: string | null;
  votes: string;
  user_id: string | null;
  created_at: number;
  updated_at: number;
};

const fromRaw = (r: Raw): ActivityRow => ({
  seq: r.seq,
  id: r.id,
  orgId: r.org_id,
  type: r.type,
  status: r.status,
  fingerprint: r.fingerprint,
  intent: JSON.parse(r.intent),
  result: JSON.parse(r.result),
  failure: r.failure ? JSON.parse(r.failure) : null,
  votes: JSON.parse(r.votes),
  userId: r.user_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

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
    const r = prep(this.db, "SELECT * FROM activities WHERE id = ? AND org_id = ?").get(id, orgId) as Raw | undefined;
    return r && fromRaw(r);
  }

  byId(id: string): ActivityRow | undefined {
    const r = prep(this.db, "SELECT * FROM activities WHERE id = ?").get(id) as Raw | undefined;
    return r && fromRaw(r);
  }

  byFingerprint(fingerprint: string): ActivityRow | undefined {
    const r = prep(this.db, "SELECT * FROM activities WHERE fingerprint = ?").get(fingerprint) as Raw | undefined;
    return r && fromRaw(r);
  }

  insert(a: Omit<ActivityRow, "seq">): ActivityRow {
    const info = prep(this.db, 
        `INSERT INTO activities (id, org_id, type, status, fingerprint, intent, result, failure, votes, user_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        a.id,
        a.orgId,
        a.type,
        a.status,
        a.fingerprint,
        JSON.stringify(a.intent),
        JSON.stringify(a.result),
        a.failure ? JSON.stringify(a.failure) : null,
        JSON.stringify(a.votes),
        a.userId,
        a.createdAt,
        a.updatedAt,
      );
    return { ...a, seq: Number(info.lastInsertRowid) };
  }

  update(id: string, patch: Partial<Pick<ActivityRow, "status" | "result" | "failure" | "votes">>, now: number): void {
    const cur = this.byId(id);
    if (!cur) return;
    const n = { ...cur, ...patch };
    prep(this.db, "UPDATE activities SET status = ?, result = ?, failure = ?, votes = ?, updated_at = ? WHERE id = ?")
      .run(n.status, JSON.stringify(n.result), n.failure ? JSON.stringify(n.failure) : null, JSON.stringify(n.votes), now, id);
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
    const rows = (prep(this.db, `SELECT * FROM activities WHERE ${where.join(" AND ")} ORDER BY seq ${order} LIMIT ?`).all(...args, f.limit) as Raw[]).map(fromRaw);
    return order === "ASC" ? rows.reverse() : rows;
  }
}
