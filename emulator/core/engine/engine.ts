/**
 * The activity engine: liveness, fingerprint and idempotency, votes and the decision on
 * them, and the handler run inside one SQLite transaction, recorded under the registry's
 * intent and result member names.
 *
 * Lifecycle: a submission is the proposer's approving vote. If the decision is "allow" the
 * handler runs at once (COMPLETED); "deny" records FAILED with the reason and answers it as a
 * 403 error (denial.ts); "consensus"
 * records CONSENSUS_NEEDED. Each later approval (approve_activity, or an identical body
 * submitted by another user) adds a vote and decides again; a rejection ends it REJECTED.
 * Whatever names one activity (its copies, votes on it) runs one at a time (turns.ts), so a
 * handler with an effect outside the database (a send, a swap) runs once per activity.
 * Approvals expire 24 hours (emulated) after the first of their window (approval-window.ts).
 */
import { DOCUMENTED_ERRORS } from "../error-catalogue.js";
import { createHash } from "node:crypto";
import { invalidArgument, unauthenticated, documentedError } from "../errors.js";
import type { OperationContract } from "../../../contracts/index.js";
import type { Runtime } from "../runtime.js";
import type { Caller } from "../auth/caller.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { ActivityRow, StoredVote } from "../store/activities.js";
import { ChainEffect, type ActivityEntry, type ActivityOutcome } from "../vocabulary/define.js";
import type { ActivityContext } from "../vocabulary/contexts.js";
import { decide, defaultDenial, type Decision } from "./consensus.js";
import { answerAsRecorded, denialError } from "./denial.js";
import { stampReferenceTime } from "../clock.js";
import { votesInForce } from "./approval-window.js";
import { ActivityFrame } from "./frame.js";
import { requestKey } from "./turns.js";
import { AUTHENTICATORS_NEEDED, holdActivity, holdVote, mfaRequirement, noteSatisfied, presentAuthenticator, type MfaRequirement } from "./mfa.js";

/** A request's timestampMs must be under an hour old and at most five minutes ahead. */
export const MAX_AGE_MS = 60 * 60 * 1000;
export const MAX_SKEW_MS = 5 * 60 * 1000;

export const NO_ACTIVITY_FOR_FINGERPRINT = DOCUMENTED_ERRORS.NO_ACTIVITY_FOR_FINGERPRINT.message;

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
  /** The contract as read for the submitted activity type (an older type reads its own intent). */
  op: OperationContract;
  entry: ActivityEntry;
  body: { type: string; timestampMs: string; organizationId: string; parameters: Record<string, unknown> };
  rawBody: Buffer;
  /** Whether the request asked for app proofs (families/app-proofs/proofs.ts `asksForAppProofs`); the proxy's own submissions do not. */
  asksAppProofs?: boolean;
  caller: Caller;
  /** The organization the activity happens in (tenant isolation already applied: auth/access.ts). */
  target: OrganizationRow;
  /** The submission's one instant (rt.clock): its liveness, the activity's times, its votes' and its policies'. */
  now: number;
};

function voteOf(rt: Runtime, caller: Caller, rawBody: Buffer, selection: StoredVote["selection"], now: number): StoredVote {
  return {
    id: rt.random.uuid(),
    userId: caller.user.id,
    selection,
    message: rawBody.toString("utf8"),
    publicKey: caller.credential.publicKey,
    signature: caller.credential.signature,
    scheme: caller.credential.scheme,
    credentialId: caller.credential.id,
    credentialType: caller.credential.type,
    createdAt: now,
  };
}

/**
 * A submission, in named phases: admit (liveness; its activity's turn: turns.ts; a repeated body is the same activity), resolve
 * (the frame: frame.ts), decide (session scope and default denials, consensus, MFA:
 * one phase over the frame's one policy context), then settle: execute the handler and record
 * the outcome. approve/reject are votes (`vote`) and decide the activity they name again.
 */
export async function submitActivity(rt: Runtime, s: Submission): Promise<ActivityRow> {
  checkLiveness(s.body.timestampMs, stampReferenceTime(rt.clock, s.body.timestampMs, Date.now(), s.now));
  const fingerprint = fingerprintOf(s.rawBody);
  const isVote = s.entry.authorization === "vote";
  // One turn at a time per activity (turns.ts), a vote's on the activity it names; a copy of a request in flight gets its answer.
  return rt.activityTurns.take(isVote ? votedFingerprint(s) : fingerprint, requestKey(fingerprint, s.caller), () => (isVote ? vote(rt, s, s.now) : propose(rt, s, fingerprint, s.now)));
}

/** admit, resolve, decide and settle a submission that is not a vote, in its activity's turn. */
async function propose(rt: Runtime, s: Submission, fingerprint: string, now: number): Promise<ActivityRow> {
  const existing = rt.store.activities.byFingerprint(fingerprint);
  if (existing) return resubmitted(rt, existing, s, now);

  const activity = proposal(rt, s, fingerprint, now);
  const frame = new ActivityFrame(rt, s.entry, s.target, activity.type, s.body.parameters, now);
  const { decision, mfa } = decideProposal(rt, frame, s.caller, activity.votes);
  if (mfa && !mfa.satisfied) return holdActivity(rt, activity, decision.evaluations, mfa, now);
  const settled = await settle(rt, { op: s.op, frame, activity, caller: s.caller, now, existing: null }, decision);
  if (mfa) noteSatisfied(rt, settled.id, s.caller.user.id, mfa, now);
  return settled;
}

/** admit: a body already submitted is that activity (an MFA presentation, another user's approval, or the activity as recorded). */
function resubmitted(rt: Runtime, existing: ActivityRow, s: Submission, now: number): Promise<ActivityRow> | ActivityRow {
  // MFA: the same body stamped by another credential of a user who owes authenticators presents it.
  if (awaitsAuthenticators(rt, existing, s.caller)) return presentMfa(rt, existing, s.caller, voteOf(rt, s.caller, s.rawBody, "VOTE_SELECTION_APPROVED", now), now);
  // The same body from another user of the organization counts as their approval; from a
  // user whose approval expired (approval-window.ts), it approves again.
  const isNewVoter = existing.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED" && !votesInForce(existing.votes, now).some((v) => v.userId === s.caller.user.id) && s.caller.org.id === existing.orgId;
  return isNewVoter ? addVote(rt, existing, voteOf(rt, s.caller, s.rawBody, "VOTE_SELECTION_APPROVED", now), now, s.caller) : answerAsRecorded(existing);
}

/** The new activity a submission proposes, with the proposer's approving vote. */
function proposal(rt: Runtime, s: Submission, fingerprint: string, now: number): Omit<ActivityRow, "seq"> {
  return {
    id: rt.random.uuid(),
    orgId: s.target.id,
    type: s.op.activityType!,
    status: "ACTIVITY_STATUS_PENDING",
    fingerprint,
    intent: { [s.op.intentKey!]: s.body.parameters },
    result: {},
    failure: null,
    votes: [voteOf(rt, s.caller, s.rawBody, "VOTE_SELECTION_APPROVED", now)],
    userId: s.caller.user.id,
    asksAppProofs: s.asksAppProofs ?? false,
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * decide: a proposal's session scope and default denials, then the consensus decision; MFA on
 * what is not denied (an allowed or consensus-bound proposal waits for the proposer's
 * authenticators). All of them read the frame's one policy context.
 */
function decideProposal(rt: Runtime, frame: ActivityFrame, caller: Caller, votes: StoredVote[]): { decision: Decision; mfa: MfaRequirement | undefined } {
  const target = frame.org;
  const context = () => frame.policyContext(target, votes);
  // Parent-initiated auth flows are decided by the parent organization's quorum and policies.
  const decidingOrg = caller.org.id === target.id ? target : caller.org;
  const outOfScope = rt.hooks.proposalDenial(rt, caller, context) ?? defaultDenial(rt, target, frame.entry, frame.params, caller.user.id);
  const decision: Decision = outOfScope ? { outcome: "deny", failure: outOfScope, evaluations: [] } : decide(rt, frame, decidingOrg, votes);
  const mfa = decision.outcome === "deny" ? undefined : mfaRequirement(rt, caller, context);
  return { decision, mfa };
}

/** One decided activity of organization `frame.org` (new: `existing` null), on its way to being recorded. */
type Settling = {
  op: OperationContract;
  frame: ActivityFrame;
  activity: Omit<ActivityRow, "seq">;
  caller: Caller;
  now: number;
  existing: ActivityRow | null;
};

/** settle: a denial or consensus is recorded as such; an allow executes the handler and records its outcome. */
async function settle(rt: Runtime, a: Settling, decision: Decision): Promise<ActivityRow> {
  const { store } = rt;
  // A denial is recorded FAILED, then answered as an HTTP 403 error (denial.ts).
  if (decision.outcome === "deny") throw denialError(store.tx(() => record(rt, a, decision, { status: "ACTIVITY_STATUS_FAILED", failure: decision.failure })));
  if (decision.outcome === "consensus") return store.tx(() => record(rt, a, decision, { status: "ACTIVITY_STATUS_CONSENSUS_NEEDED" }));
  return execute(rt, a, decision);
}

/**
 * execute: the entry's handler inside one store transaction, handed the frame's resolved signer
 * and the runtime's offload; its result is recorded in the same transaction. A handler with an
 * effect outside the database (a chain) prepares it in that transaction and answers a
 * `ChainEffect`: its effect is awaited outside any transaction, then settled in the transaction
 * that records the activity (prepare -> effect -> settle). A handler that writes nothing
 * (signing) may answer a promise: the activity is recorded once it settles.
 */
async function execute(rt: Runtime, a: Settling, decision: Decision): Promise<ActivityRow> {
  const { store } = rt;
  const { frame, op } = a;
  const ctx: ActivityContext = { rt, now: a.now, org: frame.org, caller: a.caller, activityId: a.activity.id, signer: (signWith) => frame.signer(signWith), offload: rt.offload };
  const complete = (outcome: ActivityOutcome): ActivityRow => {
    if ("failAfterCommit" in outcome) throw outcome.failAfterCommit;
    // An older version's result member drops what it does not name (zod objects strip unknown keys).
    const result = op.olderResult ? (op.olderResult.safeParse(outcome).data ?? outcome) : outcome;
    return record(rt, a, decision, { status: "ACTIVITY_STATUS_COMPLETED", result: op.resultKey ? { [op.resultKey]: result } : {} });
  };
  let pending: Promise<ActivityOutcome> | undefined;
  let effect: ChainEffect | undefined;
  let failure: unknown;
  const done = store.tx(() => {
    const outcome = frame.entry.run(ctx, frame.params);
    if (outcome instanceof Promise) {
      pending = outcome;
      return undefined;
    }
    if (outcome instanceof ChainEffect) {
      effect = outcome; // prepared: what it wrote commits now
      return undefined;
    }
    // A failure that must keep the handler's writes (e.g. an OTP attempt) commits, then answers.
    if ("failAfterCommit" in outcome) {
      failure = outcome.failAfterCommit;
      return undefined;
    }
    return complete(outcome);
  });
  if (failure) throw failure;
  if (done) return done;
  // Nothing else decides this activity meanwhile: the submission holds the activity's turn (turns.ts).
  if (effect) {
    const { settle, abandon } = effect;
    let effected: unknown;
    try {
      effected = await effect.effect();
    } catch (err) {
      if (abandon) store.tx(abandon);
      throw err;
    }
    return store.tx(() => complete(settle(effected)));
  }
  // Signing writes nothing, so an asynchronous handler settles outside the transaction.
  const outcome = await pending!;
  return store.tx(() => complete(outcome));
}

/**
 * record: writes the activity with `patch` and the decision's policy evaluations (inserted, or
 * updated when it exists) and emits ACTIVITY_UPDATES, inside the caller's transaction: its
 * webhook rows commit or roll back with it.
 */
function record(rt: Runtime, a: Settling, decision: Decision, patch: Partial<ActivityRow>): ActivityRow {
  const row = { ...a.activity, ...patch, updatedAt: a.now };
  const evaluation = { id: rt.random.uuid(), voteId: a.activity.votes.at(-1)?.id ?? null, evaluations: decision.evaluations, createdAt: a.now };
  let written: ActivityRow;
  if (a.existing) {
    rt.store.activities.update(row, { status: row.status, result: row.result, failure: row.failure, votes: row.votes }, a.now, evaluation);
    written = { ...row, seq: a.existing.seq };
  } else written = rt.store.activities.insert(row, evaluation);
  if (written.status === "ACTIVITY_STATUS_COMPLETED") {
    const { frame } = a;
    rt.hooks.activityCompleted(rt, {
      activity: written,
      entry: frame.entry,
      get subjects() {
        return frame.subjects;
      },
    });
  }
  rt.events.emit({ type: "ACTIVITY_UPDATES", orgId: written.orgId, activity: written, evaluations: evaluation.evaluations });
  return written;
}

/** The caller behind a stored vote (undefined once the voter has been deleted). */
function callerOf(rt: Runtime, v: StoredVote | undefined): Caller | undefined {
  const user = v && rt.store.users.byId(v.userId);
  const org = user && rt.store.organizations.get(user.orgId);
  if (!v || !user || !org) return undefined;
  const kind = v.credentialType === "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR" ? "authenticator" : "api_key";
  return { user, org, credential: { kind, id: v.credentialId ?? "", publicKey: v.publicKey, type: v.credentialType ?? "", scheme: v.scheme, signature: v.signature } };
}

/**
 * Adds a vote (none: decides again on the votes it has, once the proposer's MFA is met) and
 * decides. A `voter` whose own MFA policy applies has the vote held until it is met (mfa.ts).
 */
async function addVote(rt: Runtime, a: ActivityRow, v: StoredVote | null, now: number, voter?: Caller): Promise<ActivityRow> {
  const found = rt.registry.operationForActivityType(a.type);
  if (!found) throw invalidArgument(`activity ${a.id} has type ${a.type}, which this emulator no longer runs`, "parameters.fingerprint");
  const { op, entry } = found;
  const org = rt.store.organizations.get(a.orgId)!;
  const params = Object.values(a.intent)[0] as Record<string, unknown>;
  const frame = new ActivityFrame(rt, entry, org, a.type, params, now);
  if (v && voter) {
    const held = holdVote(rt, a, v, voter, now, () => frame.policyContext(org, [...a.votes, v]));
    if (held) return held;
  }
  const votes = v ? [...a.votes, v] : a.votes;
  const withVote = { ...a, votes };
  if (v?.selection === "VOTE_SELECTION_REJECTED") {
    return rt.store.tx(() => {
      rt.store.activities.update(a, { status: "ACTIVITY_STATUS_REJECTED", votes }, now);
      const rejected: ActivityRow = { ...a, status: "ACTIVITY_STATUS_REJECTED", votes, updatedAt: now };
      rt.events.emit({ type: "ACTIVITY_UPDATES", orgId: rejected.orgId, activity: rejected });
      return rejected;
    });
  }
  // Only the approvals of the current 24-hour window count (approval-window.ts).
  const decision = decide(rt, frame, org, votesInForce(votes, now));
  return settle(rt, { op, frame, activity: withVote, caller: callerOf(rt, a.votes[0]) ?? callerOf(rt, v ?? undefined)!, now, existing: a }, decision);
}

/** Whether this caller owes authenticators on the activity (the proposer while AUTHENTICATORS_NEEDED, or a held approver). */
function awaitsAuthenticators(rt: Runtime, a: ActivityRow, caller: Caller): boolean {
  const challenge = rt.store.mfaChallenges.of(a.id, caller.user.id);
  return a.status === AUTHENTICATORS_NEEDED ? a.userId === caller.user.id || !!challenge : !!challenge && !challenge.satisfied && a.status === "ACTIVITY_STATUS_CONSENSUS_NEEDED";
}

/** A stamp presented towards MFA (mfa.ts); once the challenge is met the activity is decided again. */
async function presentMfa(rt: Runtime, a: ActivityRow, caller: Caller, v: StoredVote, now: number): Promise<ActivityRow> {
  if (!awaitsAuthenticators(rt, a, caller)) throw invalidArgument(`activity ${a.id} is waiting for its proposer's authenticators (MFA): other users may vote once that is satisfied`, "parameters.fingerprint");
  if (v.selection === "VOTE_SELECTION_REJECTED") return addVote(rt, a, v, now);
  const { satisfied, heldVote } = presentAuthenticator(rt, a, caller, now);
  if (!satisfied) return rt.store.activities.byId(a.id)!;
  return addVote(rt, a, heldVote, now);
}

/** The fingerprint of the activity a vote names. */
const votedFingerprint = (s: Submission): string => (typeof s.body.parameters.fingerprint === "string" ? s.body.parameters.fingerprint : "");

/** approve_activity / reject_activity: a vote on the activity named by fingerprint. */
async function vote(rt: Runtime, s: Submission, now: number): Promise<ActivityRow> {
  const target = rt.store.activities.byFingerprint(votedFingerprint(s));
  if (!target || target.orgId !== s.target.id) throw documentedError("NO_ACTIVITY_FOR_FINGERPRINT");
  // The same vote body again (a retry) is the vote it cast: the activity as it stands.
  const message = s.rawBody.toString("utf8");
  if (target.votes.some((v) => v.userId === s.caller.user.id && v.message === message)) return answerAsRecorded(target);
  const selection = s.op.name === "approve_activity" ? "VOTE_SELECTION_APPROVED" : "VOTE_SELECTION_REJECTED";
  if (target.status === AUTHENTICATORS_NEEDED || awaitsAuthenticators(rt, target, s.caller)) return presentMfa(rt, target, s.caller, voteOf(rt, s.caller, s.rawBody, selection, now), now);
  if (s.caller.credential.kind === "attested") throw unauthenticated("an X-Stamp-Attested stamp can approve an activity only to present an MFA method its user owes", "UNAUTHENTICATED");
  if (target.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED") {
    throw invalidArgument(`activity ${target.id} is not awaiting consensus (status ${target.status})`, "parameters.fingerprint");
  }
  if (votesInForce(target.votes, now).some((v) => v.userId === s.caller.user.id)) {
    throw invalidArgument(`user ${s.caller.user.id} has already voted on activity ${target.id}`, "parameters.fingerprint");
  }
  return addVote(rt, target, voteOf(rt, s.caller, s.rawBody, selection, now), now, s.caller);
}
