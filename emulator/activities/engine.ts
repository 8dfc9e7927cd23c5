/**
 * The activity engine: liveness, fingerprint and idempotency, authorization, and the
 * handler run inside one SQLite transaction, recorded under the registry's intent and
 * result member names.
 */
import { createHash } from "node:crypto";
import { invalidArgument, unimplemented } from "../errors.js";
import { newId } from "../ids.js";
import type { OperationContract } from "../../contracts/index.js";
import type { Runtime } from "../runtime.js";
import type { Caller } from "../auth/caller.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { ActivityRow, StoredVote } from "../store/activities.js";
import { activityHandlers } from "./handlers/index.js";
import { checkCallerOrganization, decide } from "./authorize.js";

/** A request's timestampMs must be under an hour old and at most five minutes ahead. */
export const MAX_AGE_MS = 60 * 60 * 1000;
export const MAX_SKEW_MS = 5 * 60 * 1000;

export function fingerprintOf(rawBody: Buffer): string {
  return `sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
}

export function checkLiveness(timestampMs: string, now: number): void {
  const ts = /^\d+$/.test(timestampMs) ? Number(timestampMs) : NaN;
  if (!Number.isFinite(ts)) throw invalidArgument("invalid timestampMs: expected milliseconds since the epoch as a decimal string", "timestampMs", "INVALID_TIME");
  if (ts < now - MAX_AGE_MS) throw invalidArgument("invalid timestampMs: request is more than 1 hour old", "timestampMs", "INVALID_TIME");
  if (ts > now + MAX_SKEW_MS) throw invalidArgument("invalid timestampMs: request is more than 5 minutes in the future", "timestampMs", "INVALID_TIME");
}

export type Submission = {
  op: OperationContract;
  body: { type: string; timestampMs: string; organizationId: string; parameters: Record<string, unknown> };
  rawBody: Buffer;
  caller: Caller;
  target: OrganizationRow;
};

export async function submitActivity(rt: Runtime, s: Submission): Promise<ActivityRow> {
  const { store } = rt;
  const now = rt.clock.now();
  checkLiveness(s.body.timestampMs, now);
  const fingerprint = fingerprintOf(s.rawBody);
  const existing = store.activities.byFingerprint(fingerprint);
  if (existing) return existing;

  const handler = activityHandlers[s.op.name];
  if (!handler) throw unimplemented(`${s.op.name} (${s.op.activityType}) is routed but not emulated yet`);
  checkCallerOrganization(s.caller, s.target, s.op.name);

  const vote: StoredVote = {
    id: newId(),
    userId: s.caller.user.id,
    selection: "VOTE_SELECTION_APPROVED",
    message: s.rawBody.toString("utf8"),
    publicKey: s.caller.credential.publicKey,
    signature: s.caller.credential.signature,
    scheme: s.caller.credential.scheme,
    createdAt: now,
  };
  const activityId = newId();
  const base = {
    id: activityId,
    orgId: s.target.id,
    type: s.op.activityType!,
    fingerprint,
    intent: { [s.op.intentKey!]: s.body.parameters },
    result: {},
    failure: null,
    votes: [vote],
    userId: s.caller.user.id,
    createdAt: now,
    updatedAt: now,
  };

  const decision = decide(s.caller, s.target, s.op.name, s.body.parameters);
  if (decision.outcome === "deny") return store.activities.insert({ ...base, status: "ACTIVITY_STATUS_FAILED", failure: decision.failure });
  if (decision.outcome === "consensus") return store.activities.insert({ ...base, status: "ACTIVITY_STATUS_CONSENSUS_NEEDED" });

  const complete = (result: Record<string, unknown>) =>
    store.activities.insert({ ...base, status: "ACTIVITY_STATUS_COMPLETED", result: s.op.resultKey ? { [s.op.resultKey]: result } : {} });
  const ctx = { rt, now, org: s.target, caller: s.caller, activityId };
  let pending: Promise<Record<string, unknown>> | undefined;
  const done = store.tx(() => {
    const result = handler(ctx, s.body.parameters);
    if (result instanceof Promise) {
      pending = result;
      return undefined;
    }
    return complete(result);
  });
  if (done) return done;
  const result = await pending!;
  // An identical request may have completed while this one awaited: keep the first.
  return store.activities.byFingerprint(fingerprint) ?? complete(result);
}
