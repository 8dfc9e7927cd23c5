/**
 * How a denied activity answers. The activity is recorded ACTIVITY_STATUS_FAILED with its
 * failure (so get_activity, list_activities and get_policy_evaluations show it), and the
 * request that caused the denial answers that same failure as an rpcStatus error: code 7
 * PERMISSION_DENIED, HTTP 403, with no activity in the body. The SDKs surface it as
 * `TurnkeyRequestError` ("Turnkey error 7: ..."), which is what Turnkey's own examples and
 * integration tests catch. Sources and the reasoning: docs/activity-lifecycle.md.
 */
import { badRequestDetail, GrpcCode, TurnkeyError, turnkeyErrorDetail, type RpcStatus } from "../errors.js";
import { quote } from "../input-error.js";
import type { ActivityRow } from "../store/activities.js";

/** One policy's verdict on an activity (the decision records them: consensus.ts). */
export type PolicyEvaluationResult = { policyId: string; outcome: string };

/** The service's top-level message for a policy-engine denial, implicit or explicit alike. */
export const POLICY_DENIED_MESSAGE =
  "You don't have sufficient permissions to take this action. Please add a policy granting this user permissions. Learn more at https://docs.turnkey.com/concepts/policies/quickstart.";

/** The detail's message when no policy denied explicitly and none allowed. */
export const IMPLICIT_DENY_DETAIL = "No policies evaluated to outcome: Allow";

/** The detail's message when DENY policies matched: it names them. */
export const explicitDenyDetail = (policyIds: string[]): string => `The following policies denied this action: ${policyIds.join(", ")}`;

export const POLICY_ENGINE_PERMISSION_ERROR = "type.googleapis.com/errors.v1.PolicyEnginePermissionError";

/**
 * The failure for a policy-engine denial. `evaluations` are every policy's outcome for this
 * vote (an ALLOW that matched stays OUTCOME_ALLOW beside the OUTCOME_DENY_EXPLICIT that won).
 */
export function policyDenial(evaluations: PolicyEvaluationResult[]): RpcStatus {
  const denying = evaluations.filter((e) => e.outcome === "OUTCOME_DENY_EXPLICIT").map((e) => e.policyId);
  return {
    code: GrpcCode.PERMISSION_DENIED,
    message: POLICY_DENIED_MESSAGE,
    details: [
      {
        "@type": POLICY_ENGINE_PERMISSION_ERROR,
        message: denying.length > 0 ? explicitDenyDetail(denying) : IMPLICIT_DENY_DETAIL,
        policyEvaluations: evaluations.map((e) => ({ policyId: e.policyId, outcome: e.outcome })),
      },
    ],
  };
}

/**
 * The failure for an import addressed to another user: "All import requests must target your
 * own user", a default deny (tkhq/docs features/organizations.mdx:28-29), checked before the
 * root quorum and policies.
 */
export function importTargetDenial(activityName: string, targetUserId: string, proposerId: string): RpcStatus {
  const message = `request not authorized: all import requests must target your own user: ${activityName} names user ${quote(targetUserId)} (parameters.userId), the request comes from user ${proposerId}`;
  return { code: GrpcCode.PERMISSION_DENIED, message, details: [turnkeyErrorDetail("REQUEST_NOT_AUTHORIZED"), badRequestDetail("parameters.userId", message)] };
}

/** The failure for a root-quorum-only activity proposed by a user outside the root quorum. */
export function rootQuorumDenial(activityName: string): RpcStatus {
  return {
    code: GrpcCode.PERMISSION_DENIED,
    message: `request not authorized: ${activityName} can only be approved by the root quorum`,
    details: [turnkeyErrorDetail("REQUEST_NOT_AUTHORIZED")],
  };
}

const isDenied = (a: ActivityRow): boolean => a.status === "ACTIVITY_STATUS_FAILED" && a.failure?.code === GrpcCode.PERMISSION_DENIED;

/** The error a denied activity answers with, once its FAILED row is committed. */
export function denialError(activity: ActivityRow): TurnkeyError {
  if (!isDenied(activity)) throw new Error(`activity ${activity.id} is ${activity.status}, not a recorded denial`);
  const { code, message, details } = activity.failure!;
  return new TurnkeyError(code, message, details);
}

/** An activity found again (the same body resubmitted): a recorded denial answers as it did the first time. */
export function answerAsRecorded(activity: ActivityRow): ActivityRow {
  if (isDenied(activity)) throw denialError(activity);
  return activity;
}
