/**
 * Who may run an activity in an organization, before any policy is read:
 *  - callers act only in their own organization; a parent organization may read its
 *    sub-organizations but not write in them, except to start the auth flows it runs for
 *    their users;
 *  - the root quorum decides alone (threshold 1) or collects votes (threshold above 1);
 *  - users may always manage their own credentials;
 *  - everything else goes to the policy engine (implicit deny when no policy allows it).
 */
import { invalidArgument, permissionDenied, turnkeyErrorDetail, type RpcStatus } from "../errors.js";
import type { Caller } from "../auth/caller.js";
import type { OrganizationRow } from "../store/organizations.js";

/** Auth activities a parent organization starts on behalf of a sub-organization's users. */
export const PARENT_INITIATED_ACTIVITIES = new Set([
  "email_auth",
  "init_otp",
  "init_otp_auth",
  "verify_otp",
  "otp_login",
  "otp_auth",
  "oauth",
  "oauth_login",
  "init_user_email_recovery",
  "stamp_login",
]);

/** Activities that act only on the caller's own credentials. */
const OWN_CREDENTIAL_ACTIVITIES = new Set(["create_api_keys", "delete_api_keys", "create_authenticators", "delete_authenticators", "create_oauth_providers", "delete_oauth_providers"]);

export type Decision =
  | { outcome: "allow" }
  | { outcome: "consensus"; approvals: number; threshold: number }
  | { outcome: "deny"; failure: RpcStatus };

export function checkCallerOrganization(caller: Caller, target: OrganizationRow, opName: string): void {
  if (caller.org.id === target.id) return;
  if (target.parentId === caller.org.id) {
    if (PARENT_INITIATED_ACTIVITIES.has(opName)) return;
    throw permissionDenied("request not authorized: a parent organization can read its sub-organizations but not write in them");
  }
  throw invalidArgument(
    `organization mismatch: request is targeting organization ("${target.id}"), but voters are in organization ("${caller.org.id}")`,
    "organizationId",
    "ORGANIZATION_MISMATCH",
  );
}

export const IMPLICIT_DENY_MESSAGE = "No policies evaluated to outcome: Allow";

export function implicitDeny(): RpcStatus {
  return {
    code: 7,
    message: `request not authorized: ${IMPLICIT_DENY_MESSAGE}`,
    details: [
      turnkeyErrorDetail("REQUEST_NOT_AUTHORIZED"),
      { "@type": "type.googleapis.com/errors.v1.PolicyEnginePermissionError", message: IMPLICIT_DENY_MESSAGE, policyEvaluations: [] },
    ],
  };
}

export function decide(caller: Caller, target: OrganizationRow, opName: string, params: Record<string, unknown>): Decision {
  if (caller.org.id !== target.id) return { outcome: "allow" }; // parent-initiated auth flows
  if (target.rootUserIds.includes(caller.user.id)) {
    if (target.rootQuorumThreshold <= 1) return { outcome: "allow" };
    return { outcome: "consensus", approvals: 1, threshold: target.rootQuorumThreshold };
  }
  if (OWN_CREDENTIAL_ACTIVITIES.has(opName) && params.userId === caller.user.id) return { outcome: "allow" };
  return { outcome: "deny", failure: implicitDeny() };
}
