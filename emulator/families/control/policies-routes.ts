/**
 * `POST /emulator/v1/policies/evaluate`: "would this be allowed?" — runs the activity engine's
 * own decision (core/engine/consensus.ts: root quorum, own-credential rule, then the
 * organization's policies over the same evaluation context) on a pasted activity, without
 * recording anything.
 *
 * Body: `{ activity, userId, approverIds? }`. `activity` is a request body as an SDK sends it
 * (`{type, organizationId, parameters}`) or an activity as `get_activity` returns it (`intent`
 * holding one `...Intent` member); `userId` proposes it (their first credential is the
 * proposal's); `approverIds` add approving votes.
 */
import { Router } from "express";
import type { Runtime } from "../../core/runtime.js";
import { invalidArgument, isTurnkeyError, notFound, TurnkeyError } from "../../core/errors.js";
import { parseRequest } from "../../../contracts/index.js";
import { decide } from "../../core/engine/consensus.js";
import { ActivityFrame } from "../../core/engine/frame.js";
import type { StoredVote } from "../../core/store/activities.js";
import { handle, jsonOf, readBody } from "../../core/http/control-routes.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** An approving vote by `userId` as their first credential would cast it (no signature: nothing is verified or stored). */
function voteBy(rt: Runtime, userId: string, now: number): StoredVote {
  const key = rt.store.apiKeys.forUser(userId)[0];
  const passkey = key ? undefined : rt.store.authenticators.forUser(userId)[0];
  return {
    id: `evaluation-${userId}`,
    userId,
    selection: "VOTE_SELECTION_APPROVED",
    message: "",
    publicKey: key?.publicKey ?? passkey?.publicKey ?? "",
    signature: "",
    scheme: key ? "SIGNATURE_SCHEME_TK_API_P256" : "",
    credentialId: key?.id ?? passkey?.id ?? "",
    credentialType: key?.credentialType ?? (passkey ? "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" : ""),
    createdAt: now,
  };
}

/** The pasted activity's parameters: `parameters`, or the single member of an activity's `intent`. */
function parametersOf(activity: Record<string, unknown>): Record<string, unknown> {
  if (isObject(activity.parameters)) return activity.parameters;
  if (isObject(activity.intent)) {
    const members = Object.values(activity.intent);
    if (members.length === 1 && isObject(members[0])) return members[0];
  }
  throw invalidArgument("activity.parameters is required: an object (or an activity's intent with one ...Intent member)", "activity.parameters");
}

/** The contract's 400 names a request field (`parameters.x`): here it sits under `activity`. */
function underActivity(e: unknown): unknown {
  if (!isTurnkeyError(e)) return e;
  const details = e.details.map((d) => {
    const violations = (d as { fieldViolations?: { field: string; description: string }[] }).fieldViolations;
    return violations ? { ...d, fieldViolations: violations.map((v) => ({ ...v, field: `activity.${v.field}` })) } : d;
  });
  return new TurnkeyError(e.code, e.message, details);
}

export function evaluateActivity(rt: Runtime, body: Record<string, unknown>): Record<string, unknown> {
  const { store } = rt;
  const activity = body.activity;
  if (!isObject(activity)) throw invalidArgument("activity is required: the activity to evaluate, as a request body or as get_activity returns it", "activity");
  if (typeof activity.type !== "string" || !activity.type) throw invalidArgument("activity.type is required", "activity.type");
  const found = rt.registry.operationForActivityType(activity.type);
  if (!found) throw invalidArgument(`activity.type ${activity.type} is not an activity type this emulator runs`, "activity.type");
  const parameters = parametersOf(activity);
  if (typeof body.userId !== "string" || !body.userId) throw invalidArgument("userId is required: the user proposing the activity", "userId");
  const proposer = store.users.byId(body.userId);
  if (!proposer) throw notFound(`user not found: ${body.userId}`);
  const organizationId = typeof activity.organizationId === "string" && activity.organizationId ? activity.organizationId : proposer.orgId;
  const target = store.organizations.get(organizationId);
  if (!target) throw notFound(`organization not found: ${organizationId}`);
  // As the engine does: a parent's user starting an auth flow in a sub-organization is decided by the parent.
  if (proposer.orgId !== target.id && target.parentId !== proposer.orgId) throw invalidArgument(`user ${proposer.id} belongs neither to organization ${target.id} nor to its parent`, "userId");
  const decidingOrg = store.organizations.get(proposer.orgId)!;

  const approverIds = body.approverIds === undefined ? [] : body.approverIds;
  if (!Array.isArray(approverIds) || approverIds.some((a) => typeof a !== "string")) throw invalidArgument("approverIds must be an array of user ids", "approverIds");
  approverIds.forEach((id: string, i) => {
    if (!store.users.get(decidingOrg.id, id)) throw invalidArgument(`approverIds[${i}]: ${id} is not a user of organization ${decidingOrg.id}`, `approverIds[${i}]`);
  });

  const now = rt.clock.now();
  let parsed: { parameters: Record<string, unknown> };
  try {
    parsed = parseRequest(found.op.request, { type: activity.type, timestampMs: String(now), organizationId, parameters }) as { parameters: Record<string, unknown> };
  } catch (e) {
    throw underActivity(e);
  }
  const votes = [...new Set([proposer.id, ...(approverIds as string[])])].map((id) => voteBy(rt, id, now));
  const decision = decide(rt, new ActivityFrame(rt, found.entry, decidingOrg, activity.type, parsed.parameters, now), decidingOrg, votes);
  const names = new Map(store.policies.list(decidingOrg.id).map((p) => [p.id, p.name]));
  const outcome = decision.outcome === "allow" ? "ALLOWED" : decision.outcome === "consensus" ? "CONSENSUS_NEEDED" : "DENIED";
  return {
    outcome,
    /** The status a submission would get: COMPLETED (when the handler then succeeds), CONSENSUS_NEEDED or FAILED. */
    status: decision.outcome === "allow" ? "ACTIVITY_STATUS_COMPLETED" : decision.outcome === "consensus" ? "ACTIVITY_STATUS_CONSENSUS_NEEDED" : "ACTIVITY_STATUS_FAILED",
    activityType: activity.type,
    organizationId: decidingOrg.id,
    approverIds: votes.map((v) => v.userId),
    policyEvaluations: decision.evaluations.map((e) => ({ ...e, policyName: names.get(e.policyId) ?? null })),
    ...(decision.outcome === "deny" ? { failure: decision.failure } : {}),
  };
}

export function policiesRouter(rt: Runtime): Router {
  const router = Router();
  router.post(
    "/emulator/v1/policies/evaluate",
    readBody,
    handle((req, res) => {
      res.json(evaluateActivity(rt, jsonOf(req)));
    }),
  );
  return router;
}
