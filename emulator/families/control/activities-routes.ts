/**
 * Activities across every organization, for inspection and for voting from outside the SDK:
 *
 * - `GET /emulator/v1/activities?organizationId=&type=&status=&userId=&limit=&before=`: newest
 *   first, one summary line each; `type` and `status` take several values (repeated or
 *   comma-separated; a status may drop its `ACTIVITY_STATUS_` prefix); `before` is the id of
 *   the last activity of the previous page (the answer's `next`).
 * - `GET /emulator/v1/activities/{id}`: the activity in its wire form, the policy evaluations
 *   that decided it (with the policies' names), who may still vote and, while it awaits
 *   consensus, when its approvals expire (`approvalWindow`, core/engine/approval-window.ts).
 * - `POST /emulator/v1/activities/{id}/approve|reject {userId, apiPrivateKey?}`: a vote cast as
 *   that user through the coordinator (ui-votes.ts); answers what the coordinator answered.
 */
import { Router, type Request } from "express";
import type { Runtime } from "../../core/runtime.js";
import { invalidArgument, notFound } from "../../core/errors.js";
import { ACTIVITY_STATUSES, type ActivityRow, type ActivityQuery } from "../../core/store/activities.js";
import { renderActivity } from "../../core/views/activity.js";
import { handle, jsonOf, readBody } from "../../core/http/control-routes.js";
import { castVote, holdsKeyFor } from "./ui-votes.js";
import { approvalWindow, votesInForce } from "../../core/engine/approval-window.js";

const DEFAULT_LIMIT = 100;
const MAX_LIMIT = 1000;

/** A query parameter's values: repeated and comma-separated forms alike, blanks dropped. */
function valuesOf(v: unknown, field: string): string[] {
  const list = v === undefined ? [] : Array.isArray(v) ? v : [v];
  if (list.some((x) => typeof x !== "string")) throw invalidArgument(`${field} must be a string`, field);
  return (list as string[]).flatMap((x) => x.split(",")).map((x) => x.trim()).filter(Boolean);
}

function single(v: unknown, field: string): string | undefined {
  const all = valuesOf(v, field);
  if (all.length > 1) throw invalidArgument(`${field} takes one value`, field);
  return all[0];
}

/** Reads the list filters; a 400 naming the parameter when one is malformed. */
export function parseActivityQuery(rt: Runtime, q: Request["query"]): ActivityQuery {
  const statuses = valuesOf(q.status, "status").map((s) => (s.startsWith("ACTIVITY_STATUS_") ? s : `ACTIVITY_STATUS_${s.toUpperCase()}`));
  const badStatus = statuses.find((s) => !(ACTIVITY_STATUSES as readonly string[]).includes(s));
  if (badStatus) throw invalidArgument(`status ${badStatus} is not an activity status (one of ${ACTIVITY_STATUSES.join(", ")})`, "status");
  const types = valuesOf(q.type, "type");
  const badType = types.find((t) => !/^ACTIVITY_TYPE_[A-Z0-9_]+$/.test(t));
  if (badType) throw invalidArgument(`type ${badType} is not an activity type (ACTIVITY_TYPE_...)`, "type");
  const organizationId = single(q.organizationId, "organizationId");
  if (organizationId && !rt.store.organizations.get(organizationId)) throw notFound(`organization not found: ${organizationId}`);
  const limitText = single(q.limit, "limit");
  const limit = limitText === undefined ? DEFAULT_LIMIT : /^\d+$/.test(limitText) ? Number(limitText) : NaN;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) throw invalidArgument(`limit must be a whole number from 1 to ${MAX_LIMIT}`, "limit");
  const before = single(q.before, "before");
  let beforeSeq: number | undefined;
  if (before) {
    const cursor = rt.store.activities.byId(before);
    if (!cursor) throw invalidArgument(`before names no activity: ${before}`, "before");
    beforeSeq = cursor.seq;
  }
  return { orgId: organizationId, types, statuses, userId: single(q.userId, "userId"), before: beforeSeq, limit };
}

const iso = (ms: number) => new Date(ms).toISOString();

export function activitySummaries(rt: Runtime, q: ActivityQuery): Record<string, unknown> {
  const { store } = rt;
  const { page, total } = store.activities.search(q);
  const orgNames = new Map<string, string>();
  const userNames = new Map<string, string | null>();
  const orgName = (id: string) => {
    if (!orgNames.has(id)) orgNames.set(id, store.organizations.get(id)?.name ?? "");
    return orgNames.get(id)!;
  };
  const userName = (id: string | null) => {
    if (!id) return null;
    if (!userNames.has(id)) userNames.set(id, store.users.byId(id)?.name ?? null);
    return userNames.get(id)!;
  };
  return {
    activities: page.map((a) => ({
      id: a.id,
      organizationId: a.orgId,
      organizationName: orgName(a.orgId),
      type: a.type,
      status: a.status,
      userId: a.userId,
      userName: userName(a.userId),
      votes: a.votes.length,
      failure: a.failure?.message ?? null,
      createdAt: iso(a.createdAt),
      updatedAt: iso(a.updatedAt),
    })),
    total,
    next: page.length === q.limit ? page.at(-1)!.id : null,
    types: store.activities.typesSeen(),
  };
}

/** The policy evaluations recorded for an activity, each policy named. */
function evaluationsOf(rt: Runtime, a: ActivityRow) {
  const names = new Map(rt.store.policies.list(a.orgId).map((p) => [p.id, p.name]));
  return rt.store.policyEvaluations.forActivity(a.id).map((e) => ({
    id: e.id,
    voteId: e.voteId,
    createdAt: iso(e.createdAt),
    evaluations: (e.evaluations as { policyId: string; outcome: string }[]).map((x) => ({ ...x, policyName: names.get(x.policyId) ?? null })),
  }));
}

export function activityDetail(rt: Runtime, id: string): Record<string, unknown> {
  const { store } = rt;
  const a = store.activities.byId(id);
  if (!a) throw notFound(`activity not found: ${id}`);
  const org = store.organizations.get(a.orgId);
  const now = rt.clock.now();
  const waiting = a.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED";
  // While it waits, an expired approval no longer counts: its voter may approve again.
  const counted = waiting ? votesInForce(a.votes, now) : a.votes;
  const voted = new Map(counted.map((v) => [v.userId, v.selection]));
  const lapsed = new Set(a.votes.filter((v) => !counted.includes(v)).map((v) => v.id));
  const window = waiting ? approvalWindow(a.votes, now) : undefined;
  return {
    activity: renderActivity(rt, a),
    organizationName: org?.name ?? "",
    policyEvaluations: evaluationsOf(rt, a),
    approvalWindow: window ? { openedAt: iso(window.openedAt), expiresAt: iso(window.expiresAt), expired: window.expired } : null,
    expiredVoteIds: [...lapsed],
    voters: store.users.list(a.orgId).map((u) => ({
      userId: u.id,
      userName: u.name,
      root: !!org?.rootUserIds.includes(u.id),
      vote: voted.get(u.id) ?? null,
      emulatorHoldsKey: holdsKeyFor(rt, u.id),
    })),
  };
}

export function activitiesRouter(rt: Runtime): Router {
  const router = Router();
  router.get(
    "/emulator/v1/activities",
    handle((req, res) => {
      res.json(activitySummaries(rt, parseActivityQuery(rt, req.query)));
    }),
  );
  router.get(
    "/emulator/v1/activities/:id",
    handle((req, res) => {
      res.json(activityDetail(rt, String(req.params.id)));
    }),
  );
  for (const selection of ["approve", "reject"] as const) {
    router.post(
      `/emulator/v1/activities/:id/${selection}`,
      readBody,
      handle(async (req, res) => {
        const answer = await castVote(rt, String(req.params.id), selection, jsonOf(req));
        res.status(answer.status).json(answer.status < 400 ? { ...(answer.body as object), voter: answer.voter } : answer.body);
      }),
    );
  }
  return router;
}
