/**
 * Where a caller may act, before any vote is counted: callers act only in their own
 * organization; a parent organization may read its sub-organizations but not write in them,
 * except to start the auth flows it runs for their users. (Votes and policies: consensus.ts.)
 */
import { invalidArgument, permissionDenied } from "../errors.js";
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
