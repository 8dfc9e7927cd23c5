/**
 * MFA policies on activities (docs/activity-lifecycle.md "MFA policies").
 *
 * The policies of the user who stamped are evaluated in `order`; the first whose condition is
 * true applies (a condition that errors does not apply). The stamp that carried the request
 * presents one authentication method; every step of the policy must be met by some method
 * the user has presented on this activity. Until then the proposer's activity waits in
 * ACTIVITY_STATUS_AUTHENTICATORS_NEEDED (an approver's vote is held instead), and each
 * approve_activity (or identical submission) the same user stamps with another credential
 * presents one more method. The engine (engine.ts) calls these functions and
 * decides the activity once a challenge is met.
 */
import { invalidArgument } from "../errors.js";
import { evaluate, parseExpression, type EvaluationContext } from "../../policy/index.js";
import type { Runtime } from "../runtime.js";
import type { Caller, Credential } from "../auth/caller.js";
import type { ActivityRow, StoredVote } from "../store/activities.js";
import type { ApiKeyRow } from "../store/api-keys.js";
import type { AuthMethod, MfaChallengeRow, MfaPolicyRow, RequiredStep } from "../store/mfa-policies.js";
import type { PolicyEvaluationResult } from "./consensus.js";

export const AUTHENTICATORS_NEEDED = "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED";
export const OUTCOME_REQUIRES_AUTHENTICATORS = "OUTCOME_REQUIRES_AUTHENTICATORS";
/** The profile of a session issued without a session profile (docs' MFA examples). */
export const DEFAULT_SESSION_PROFILE_ID = "00000000-0000-0000-0000-000000000000";

/** The authentication method a request's stamp proves. Sessions are not transitive: a session key proves SESSION only. */
export function presentedMethod(rt: Runtime, caller: Caller): AuthMethod {
  return methodOf(rt, caller.org.id, caller.credential, caller.apiKey);
}

/** `key`: the credential's API-key row when the caller already holds it (read otherwise). */
function methodOf(rt: Runtime, orgId: string, c: Pick<Credential, "kind" | "id" | "type" | "scheme">, key?: ApiKeyRow): AuthMethod {
  if (c.kind === "authenticator") return { type: "AUTHENTICATION_TYPE_PASSKEY", id: c.id };
  if (c.kind === "attested") {
    if (c.scheme === "STAMP_ATTESTED_SCHEME_P256_OIDC") return { type: "AUTHENTICATION_TYPE_OAUTH", id: c.id };
    const token = rt.store.verificationTokens.get(c.id);
    return { type: token && /SMS/.test(token.verificationType) ? "AUTHENTICATION_TYPE_SMS_OTP" : "AUTHENTICATION_TYPE_EMAIL_OTP" };
  }
  // Login keys (stamp_login, otp_login, oauth_login) and read-write session keys are sessions.
  if (/SESSION/.test(c.type) || c.type === "CREDENTIAL_TYPE_LOGIN") {
    const row = key ?? rt.store.apiKeys.get(orgId, c.id);
    return { type: "AUTHENTICATION_TYPE_SESSION", id: row?.sessionProfileId ?? DEFAULT_SESSION_PROFILE_ID };
  }
  return { type: "AUTHENTICATION_TYPE_API_KEY", id: c.id };
}

const meets = (want: AuthMethod, have: AuthMethod) => want.type === have.type && (want.id === undefined || want.id === "" || want.id === have.id);

/** Every step has at least one of its methods among those presented (a method may meet several steps). */
export function isSatisfied(steps: RequiredStep[], presented: AuthMethod[]): boolean {
  return steps.every((s) => s.any.some((want) => presented.some((have) => meets(want, have))));
}

function conditionHolds(condition: string, ctx: EvaluationContext): boolean {
  try {
    return evaluate(parseExpression(condition, { label: "condition", stored: true }), ctx) === true;
  } catch {
    return false;
  }
}

/** The first of the user's MFA policies (in order) whose condition holds for this activity. */
export function applicableMfaPolicy(rt: Runtime, userId: string, ctx: EvaluationContext): MfaPolicyRow | undefined {
  return rt.store.mfaPolicies.forUser(userId).find((p) => conditionHolds(p.condition, ctx));
}

export type MfaRequirement = { policy: MfaPolicyRow; presented: AuthMethod[]; satisfied: boolean };

/**
 * The MFA policy the caller's request falls under, and whether its own stamp already meets it.
 * `context` gives the activity's policy context (asked only when the caller has MFA policies).
 */
export function mfaRequirement(rt: Runtime, caller: Caller, context: () => EvaluationContext): MfaRequirement | undefined {
  if (!rt.store.mfaPolicies.forUser(caller.user.id).length) return undefined;
  const policy = applicableMfaPolicy(rt, caller.user.id, context());
  if (!policy) return undefined;
  const presented = [presentedMethod(rt, caller)];
  return { policy, presented, satisfied: isSatisfied(policy.requiredMethods, presented) };
}

/** Records the user's challenge on an activity (within the caller's transaction). */
export function recordChallenge(rt: Runtime, activityId: string, userId: string, req: MfaRequirement, heldVote: StoredVote | null, now: number): void {
  rt.store.mfaChallenges.insert({
    id: rt.random.uuid(),
    activityId,
    userId,
    mfaPolicyId: req.policy.id,
    requiredMethods: req.policy.requiredMethods,
    satisfiedMethods: req.presented,
    satisfied: req.satisfied,
    heldVote,
    createdAt: now,
    updatedAt: now,
  });
}

/** Records a new activity waiting for its proposer's authenticators. */
export function holdActivity(rt: Runtime, activity: Omit<ActivityRow, "seq">, evaluations: PolicyEvaluationResult[], req: MfaRequirement, now: number): ActivityRow {
  return rt.store.tx(() => {
    // The evaluation goes in with the row (one statement), as the engine writes it.
    const evaluation = { id: rt.random.uuid(), voteId: activity.votes.at(-1)?.id ?? null, evaluations: [...evaluations, { policyId: req.policy.id, outcome: OUTCOME_REQUIRES_AUTHENTICATORS }], createdAt: now };
    const row = rt.store.activities.insert({ ...activity, status: AUTHENTICATORS_NEEDED, updatedAt: now }, evaluation);
    recordChallenge(rt, row.id, activity.votes[0]!.userId, req, null, now);
    rt.events.emit({ type: "ACTIVITY_UPDATES", orgId: row.orgId, activity: row, evaluations: evaluation.evaluations });
    return row;
  });
}

/** The caller's unmet challenge on an activity, if any. */
export function openChallenge(rt: Runtime, activityId: string, userId: string): MfaChallengeRow | undefined {
  const c = rt.store.mfaChallenges.of(activityId, userId);
  return c && !c.satisfied ? c : undefined;
}

/**
 * One more method presented on an open challenge: the caller's stamp. Answers whether the
 * challenge is now met (and the vote it held, for an approver).
 */
export function presentAuthenticator(rt: Runtime, activity: ActivityRow, caller: Caller, now: number): { satisfied: boolean; heldVote: StoredVote | null } {
  const challenge = rt.store.mfaChallenges.of(activity.id, caller.user.id);
  if (!challenge) throw invalidArgument(`user ${caller.user.id} has no MFA challenge on activity ${activity.id}`, "parameters.fingerprint");
  // Met before, but the activity did not complete (its handler failed): decide it again.
  if (challenge.satisfied) return { satisfied: true, heldVote: challenge.heldVote };
  const method = presentedMethod(rt, caller);
  const presented = challenge.satisfiedMethods.some((m) => m.type === method.type && m.id === method.id) ? challenge.satisfiedMethods : [...challenge.satisfiedMethods, method];
  const satisfied = isSatisfied(challenge.requiredMethods, presented);
  rt.store.tx(() => {
    rt.store.mfaChallenges.update(challenge.id, { satisfiedMethods: presented, satisfied, updatedAt: now });
    // A verification token vouches once, as for a login.
    if (caller.credential.kind === "attested" && caller.credential.scheme === "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN") rt.store.verificationTokens.markUsed(caller.credential.id, now);
  });
  return { satisfied, heldVote: challenge.heldVote };
}

/** Records a challenge its own stamp met at once (get_mfa_status reports it), unless one exists. */
export function noteSatisfied(rt: Runtime, activityId: string, userId: string, req: MfaRequirement, now: number): void {
  if (!rt.store.mfaChallenges.of(activityId, userId)) rt.store.tx(() => recordChallenge(rt, activityId, userId, req, null, now));
}

/**
 * An approver's vote under their own MFA policy: held (the activity is answered as it stands)
 * until their authenticators meet it; a challenge already met lets the vote count. `context`
 * gives the activity's policy context with the vote counted.
 */
export function holdVote(rt: Runtime, a: ActivityRow, v: StoredVote, voter: Caller, now: number, context: () => EvaluationContext): ActivityRow | undefined {
  if (v.selection !== "VOTE_SELECTION_APPROVED" || rt.store.mfaChallenges.of(a.id, voter.user.id)) return undefined;
  const req = mfaRequirement(rt, voter, context);
  if (!req) return undefined;
  rt.store.tx(() => recordChallenge(rt, a.id, voter.user.id, req, req.satisfied ? null : v, now));
  return req.satisfied ? undefined : rt.store.activities.byId(a.id)!;
}
