/**
 * Reads across organizations that the control API's inspection routes need and the
 * repositories (which answer within one organization) do not offer: top-level organizations,
 * counts per organization in one query each, and the activity list over every organization
 * with the UI's filters. Read-only: nothing here writes.
 */
import type { Store } from "../../core/store/index.js";
import { ACTIVITY_COLUMNS, activityRows, type ActivityRow } from "../../core/store/activities.js";
import { prep } from "../../core/store/statements.js";
import { committedChanges } from "../../core/store/committed-changes.js";

/** Ids of the organizations without a parent, oldest first. */
export function topLevelOrganizationIds(store: Store): string[] {
  return (prep(store.db, "SELECT id FROM organizations WHERE parent_id IS NULL ORDER BY created_at, id").all() as { id: string }[]).map((r) => r.id);
}

/** Every organization's id, name and parent (the tree's skeleton). */
export function organizationSkeleton(store: Store): { id: string; name: string; parentId: string | null }[] {
  return prep(store.db, "SELECT id, name, parent_id AS parentId FROM organizations ORDER BY created_at, id").all() as { id: string; name: string; parentId: string | null }[];
}

const COUNTED = { users: "users", wallets: "wallets", privateKeys: "private_keys", policies: "policies", activities: "activities" } as const;
export type OrganizationCounts = Record<keyof typeof COUNTED, number>;

/** Resources per organization (missing organizations count zero everywhere). */
export function countsByOrganization(store: Store): Map<string, OrganizationCounts> {
  const out = new Map<string, OrganizationCounts>();
  for (const [name, table] of Object.entries(COUNTED) as [keyof OrganizationCounts, string][]) {
    for (const r of prep(store.db, `SELECT org_id AS orgId, COUNT(*) AS n FROM ${table} GROUP BY org_id`).all() as { orgId: string; n: number }[]) {
      let c = out.get(r.orgId);
      if (!c) out.set(r.orgId, (c = { users: 0, wallets: 0, privateKeys: 0, policies: 0, activities: 0 }));
      c[name] = r.n;
    }
  }
  return out;
}

/** Ids of deleted (tombstoned) sub-organizations. */
export function deletedOrganizationIds(store: Store): Set<string> {
  return new Set((prep(store.db, "SELECT org_id AS id FROM sub_organizations WHERE deleted_at IS NOT NULL").all() as { id: string }[]).map((r) => r.id));
}

export type ActivityQuery = {
  organizationId?: string;
  types?: string[];
  statuses?: string[];
  userId?: string;
  /** Only activities older than the one with this sequence number. */
  beforeSeq?: number;
  limit: number;
};

function whereOf(q: ActivityQuery): { sql: string; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  if (q.organizationId) {
    where.push("org_id = ?");
    args.push(q.organizationId);
  }
  if (q.types?.length) {
    where.push(`type IN (${q.types.map(() => "?").join(",")})`);
    args.push(...q.types);
  }
  if (q.statuses?.length) {
    where.push(`status IN (${q.statuses.map(() => "?").join(",")})`);
    args.push(...q.statuses);
  }
  if (q.userId) {
    where.push("user_id = ?");
    args.push(q.userId);
  }
  return { sql: where.length ? `WHERE ${where.join(" AND ")}` : "", args };
}

/** Matching activities, newest first, and how many match in all (cursor aside). */
export function queryActivities(store: Store, q: ActivityQuery): { page: ActivityRow[]; total: number } {
  const base = whereOf(q);
  const total = (prep(store.db, `SELECT COUNT(*) AS n FROM activities ${base.sql}`).get(...base.args) as { n: number }).n;
  const paged = whereOf(q);
  if (q.beforeSeq !== undefined) {
    paged.sql = paged.sql ? `${paged.sql} AND seq < ?` : "WHERE seq < ?";
    paged.args.push(q.beforeSeq);
  }
  // The repository's columns: not the policy evaluations, which the list never shows.
  const page = activityRows.readAll(prep(store.db, `SELECT ${ACTIVITY_COLUMNS} FROM activities ${paged.sql} ORDER BY seq DESC LIMIT ?`).all(...paged.args, q.limit));
  return { page, total };
}

/** The activity types seen so far (for the type filter). */
export function activityTypesSeen(store: Store): string[] {
  return (prep(store.db, "SELECT DISTINCT type FROM activities ORDER BY type").all() as { type: string }[]).map((r) => r.type);
}

/** A number that changes whenever a write of this database connection commits (not on a rollback). */
export function writeCounter(store: Store): number {
  return committedChanges(store.db);
}
