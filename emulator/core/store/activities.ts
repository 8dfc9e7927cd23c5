import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { countsByOrg, rowMapper } from "./rows.js";
import { keepVotes, readVotes, type KeptVote, type StoredVote } from "./kept-votes.js";
import type { RpcStatus } from "../errors.js";

export type { StoredVote };

/** Every activity status (the control API's status query and webhook filters check against it). */
export const ACTIVITY_STATUSES = [
  "ACTIVITY_STATUS_CREATED",
  "ACTIVITY_STATUS_PENDING",
  "ACTIVITY_STATUS_COMPLETED",
  "ACTIVITY_STATUS_FAILED",
  "ACTIVITY_STATUS_CONSENSUS_NEEDED",
  "ACTIVITY_STATUS_REJECTED",
  "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED",
] as const;

export type ActivityStatus = (typeof ACTIVITY_STATUSES)[number];

/** The policies' verdicts on one decision about an activity (get_policy_evaluations). */
export type PolicyEvaluationRecord = {
  id: string;
  voteId: string | null;
  evaluations: { policyId: string; outcome: string }[];
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
  /** Whether the request asked for app proofs (`generateAppProofs`, families/app-proofs/proofs.ts). */
  asksAppProofs: boolean;
  createdAt: number;
  updatedAt: number;
};

/**
 * Every column but `evaluations` (read only by get_policy_evaluations): votes are kept
 * compactly (kept-votes.ts) and expanded here, so every reader sees whole votes.
 */
const ACTIVITY_COLUMNS = "seq, id, org_id, type, status, fingerprint, intent, result, failure, votes, user_id, asks_app_proofs, created_at, updated_at";
const mapper = rowMapper<Omit<ActivityRow, "votes"> & { votes: KeptVote[] }>({ json: ["intent", "result", "failure", "votes"], bool: ["asksAppProofs"] });

function read(raw: unknown): ActivityRow | undefined {
  const r = mapper.read(raw);
  if (!r) return undefined;
  return { ...r, votes: readVotes(r.votes, r) };
}

const readAll = (raws: unknown[]): ActivityRow[] => raws.map((r) => read(r)!);

/**
 * Which activities to read: the coordinator's `list_activities` (one organization, a cursor
 * either way) and the control UI's list (every organization unless `orgId` is given, by user
 * too). `before`/`after` are sequence numbers of cursor activities.
 */
export type ActivityQuery = {
  orgId?: string;
  statuses?: string[];
  types?: string[];
  userId?: string;
  before?: number;
  after?: number;
  limit: number;
};

/** The WHERE conditions and their arguments of a query; with `cursor`, its before/after too. */
function filtered(q: ActivityQuery, cursor: boolean): { where: string[]; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    args.push(...values);
  };
  if (q.orgId !== undefined) add("org_id = ?", q.orgId);
  if (q.statuses?.length) add(`status IN (${q.statuses.map(() => "?").join(",")})`, ...q.statuses);
  if (q.types?.length) add(`type IN (${q.types.map(() => "?").join(",")})`, ...q.types);
  if (q.userId) add("user_id = ?", q.userId);
  if (cursor && q.before !== undefined) add("seq < ?", q.before);
  if (cursor && q.after !== undefined) add("seq > ?", q.after);
  return { where, args };
}

const whereClause = (where: string[]) => (where.length ? `WHERE ${where.join(" AND ")}` : "");

const APPEND_EVALUATION = "evaluations = json_insert(COALESCE(evaluations, '[]'), '$[#]', json(?))";

type Context = Pick<ActivityRow, "intent" | "orgId" | "type" | "userId" | "createdAt">;

export class Activities {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): ActivityRow | undefined {
    return read(prep(this.db, `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE id = ? AND org_id = ?`).get(id, orgId));
  }

  byId(id: string): ActivityRow | undefined {
    return read(prep(this.db, `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE id = ?`).get(id));
  }

  byFingerprint(fingerprint: string): ActivityRow | undefined {
    return read(prep(this.db, `SELECT ${ACTIVITY_COLUMNS} FROM activities WHERE fingerprint = ?`).get(fingerprint));
  }

  /** Records a new activity, with the policy evaluation of its first decision when given. */
  insert(a: Omit<ActivityRow, "seq">, evaluation?: PolicyEvaluationRecord): ActivityRow {
    const info = prep(
      this.db,
      "INSERT INTO activities (id, org_id, type, status, fingerprint, intent, result, failure, votes, user_id, asks_app_proofs, created_at, updated_at, evaluations) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
    ).run(
      a.id,
      a.orgId,
      a.type,
      a.status,
      a.fingerprint,
      JSON.stringify(a.intent),
      JSON.stringify(a.result),
      a.failure ? JSON.stringify(a.failure) : null,
      JSON.stringify(keepVotes(a.votes, a)),
      a.userId,
      a.asksAppProofs ? 1 : 0,
      a.createdAt,
      a.updatedAt,
      evaluation ? JSON.stringify([evaluation]) : null,
    );
    return { ...a, seq: Number(info.lastInsertRowid) };
  }

  /**
   * Updates an activity's state (`a`: the activity as read, whose intent and proposer the kept
   * votes refer to) and appends the policy evaluation of this decision when given.
   */
  update(a: Context & { id: string }, patch: Partial<Pick<ActivityRow, "status" | "result" | "failure" | "votes">>, now: number, evaluation?: PolicyEvaluationRecord): void {
    const set: [string, unknown][] = [["updated_at = ?", now]];
    if (patch.status !== undefined) set.push(["status = ?", patch.status]);
    if (patch.result !== undefined) set.push(["result = ?", JSON.stringify(patch.result)]);
    if (patch.failure !== undefined) set.push(["failure = ?", patch.failure ? JSON.stringify(patch.failure) : null]);
    if (patch.votes !== undefined) set.push(["votes = ?", JSON.stringify(keepVotes(patch.votes, a))]);
    if (evaluation) set.push([APPEND_EVALUATION, JSON.stringify(evaluation)]);
    prep(this.db, `UPDATE activities SET ${set.map(([sql]) => sql).join(", ")} WHERE id = ?`).run(...set.map(([, value]) => value), a.id);
  }

  /** The policy evaluations recorded for an activity, oldest first (none for an unknown activity). */
  evaluations(activityId: string): { orgId: string; records: PolicyEvaluationRecord[] } | undefined {
    const r = prep(this.db, "SELECT org_id AS orgId, evaluations FROM activities WHERE id = ?").get(activityId) as { orgId: string; evaluations: string | null } | undefined;
    return r && { orgId: r.orgId, records: r.evaluations ? (JSON.parse(r.evaluations) as PolicyEvaluationRecord[]) : [] };
  }

  /** A page of matching activities, newest first. */
  list(q: ActivityQuery): ActivityRow[] {
    const { where, args } = filtered(q, true);
    // "after" pages walk towards newer items: take the oldest ones above the cursor, then
    // present them newest first like every other page.
    const order = q.after !== undefined && q.before === undefined ? "ASC" : "DESC";
    const page = readAll(prep(this.db, `SELECT ${ACTIVITY_COLUMNS} FROM activities ${whereClause(where)} ORDER BY seq ${order} LIMIT ?`).all(...args, q.limit));
    return order === "ASC" ? page.reverse() : page;
  }

  /** A page of matching activities, newest first, and how many match in all (the cursor aside). */
  search(q: ActivityQuery): { page: ActivityRow[]; total: number } {
    const { where, args } = filtered(q, false);
    const total = (prep(this.db, `SELECT COUNT(*) AS n FROM activities ${whereClause(where)}`).get(...args) as { n: number }).n;
    return { page: this.list(q), total };
  }

  /** The activity types recorded so far, in every organization, sorted. */
  typesSeen(): string[] {
    return (prep(this.db, "SELECT DISTINCT type FROM activities ORDER BY type").all() as { type: string }[]).map((r) => r.type);
  }

  /** Activities per organization, every organization at once. */
  countsByOrg(): Map<string, number> {
    return countsByOrg(this.db, "activities");
  }
}
