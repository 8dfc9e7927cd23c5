/**
 * Tenant isolation, in one place: which organization a request may address, given the
 * organization its credential belongs to. Every coordinator request (query or activity)
 * passes here after its caller is resolved and before anything is read or written.
 *
 *   caller's own organization        -> allowed
 *   a sub-organization of the caller -> queries read it; activities only where the parent
 *                                       may start them (auth flows: `parentMayInitiate`)
 *   the caller's parent organization -> only discovery and login (`servedInCallerOrg`),
 *                                       which then happen in the caller's own organization
 *   any other activity across orgs   -> 400 organization mismatch (its voters are not in the
 *                                       organization it targets)
 *   any other query across orgs      -> 403 request not authorized
 *
 * A credential is found only in the target organization, its parent or (for a top-level
 * target) its sub-organizations (auth/caller.ts): a sibling's or a stranger's key is a 401
 * before this point.
 */
import { permissionDenied, documentedError } from "../errors.js";
import type { Reach } from "../vocabulary/define.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { Caller } from "./caller.js";

export const SUB_ORG_CANNOT_REACH_PARENT = "request not authorized: a sub-organization's credential cannot read or act in its parent organization";

/** The reach of an operation that declares none (and of every operation that is not emulated). */
export const OWN_ORGANIZATION_ONLY: Reach = { parentMayInitiate: false, servedInCallerOrg: false };

/** The organization the request is served in (the caller's own for "caller-org" requests addressed upward). */
export function organizationServed(caller: Caller, target: OrganizationRow, op: { kind: "submit" | "query"; reach: Reach }): OrganizationRow {
  if (caller.org.id === target.id) return target;
  const callerIsParent = target.parentId === caller.org.id;
  const callerIsSubOrg = caller.org.parentId === target.id;
  if (callerIsParent && (op.kind === "query" || op.reach.parentMayInitiate)) return target;
  if (callerIsSubOrg && op.reach.servedInCallerOrg) return caller.org;
  if (op.kind === "submit") {
    // The errors page's own example: a parent's key writing in a sub-organization (docs/activity-lifecycle.md).
    throw documentedError("ORGANIZATION_MISMATCH", `request is targeting organization ("${target.id}"), but voters are in organization ("${caller.org.id}")`, "organizationId");
  }
  if (callerIsSubOrg) throw permissionDenied(SUB_ORG_CANNOT_REACH_PARENT);
  throw permissionDenied(`request not authorized: organization ${caller.org.id} cannot read organization ${target.id}`);
}
