/**
 * Read-only sessions: create_read_only_session returns a session string that, "passed into an
 * HTTP request via `X-Session` header, gives permission to perform reads" (tkhq/docs
 * features/authentication/sessions/overview.mdx:26). @turnkey/sdk-browser sends the string
 * as is in that header, with no stamp (`sdk-client-base.ts`, `readOnlySession`).
 *
 * The string is a session JWT signed by the notarizer key (as login sessions are), of type
 * SESSION_TYPE_READ_ONLY, naming its user and organization and no key; nothing is stored.
 * A query carrying it and no stamp runs as its user; an activity needs a stamp
 * (http/coordinator.ts). docs/authentication.md › Read-only sessions.
 */
import { InputError } from "../input-error.js";
import { documentedError } from "../errors.js";
import { signSessionJwt, verifyEs256Jwt } from "../../bundles/index.js";
import type { Runtime } from "../runtime.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { UserRow } from "../store/users.js";
import type { Caller } from "./caller.js";

export const SESSION_HEADER = "x-session";
export const READ_ONLY_SESSION_TYPE = "SESSION_TYPE_READ_ONLY";
/** A read-only session lasts an hour (the service's lifetime is not documented). */
export const READ_ONLY_SESSION_SECONDS = 3600;

/** A request's read-only session, when it carries one in X-Session. */
export function sessionHeader(headers: Record<string, string | string[] | undefined>): string | undefined {
  const value = headers[SESSION_HEADER];
  return typeof value === "string" && value.trim() ? value.trim() : undefined;
}

/** The session string create_read_only_session returns, and its expiry (seconds since the epoch). */
export function issueReadOnlySession(rt: Pick<Runtime, "keys">, now: number, org: OrganizationRow, user: UserRow): { session: string; sessionExpiry: number } {
  const sessionExpiry = Math.floor(now / 1000) + READ_ONLY_SESSION_SECONDS;
  const session = signSessionJwt({ exp: sessionExpiry, session_type: READ_ONLY_SESSION_TYPE, user_id: user.id, organization_id: org.id }, rt.keys.enclave.notarizer);
  return { session, sessionExpiry };
}

/**
 * The caller a read-only session stands for, as seen from `target`. It answers as an API key
 * would: a session this instance did not issue (or whose user or organization is gone, or which
 * the target cannot see) is an unknown key, 401 `could not find public key ...`; an expired one
 * an expired key, 401 `expired api key ...`.
 */
export function resolveReadOnlySession(rt: Runtime, token: string, target: OrganizationRow): Caller {
  let claims: Record<string, unknown>;
  try {
    claims = verifyEs256Jwt(token, rt.keys.enclave.notarizer.publicKey, { doubleHash: true }).payload;
  } catch (e) {
    if (e instanceof InputError) throw documentedError("PUBLIC_KEY_NOT_FOUND");
    throw e;
  }
  const { exp, session_type: type, user_id: userId, organization_id: orgId } = claims;
  if (type !== READ_ONLY_SESSION_TYPE || typeof exp !== "number" || typeof userId !== "string" || typeof orgId !== "string") throw documentedError("PUBLIC_KEY_NOT_FOUND");
  const org = rt.store.organizations.get(orgId);
  const user = rt.store.users.byId(userId);
  const visible = org && (org.id === target.id || org.id === target.parentId || org.parentId === target.id);
  if (!org || !visible || rt.store.subOrganizations.isDeleted(org.id) || !user || user.orgId !== org.id) throw documentedError("PUBLIC_KEY_NOT_FOUND");
  if (exp * 1000 <= rt.clock.now()) throw documentedError("EXPIRED_API_KEY", `read-only session (X-Session) of user ${user.id}, expired at ${new Date(exp * 1000).toISOString()}`);
  return { user, org, credential: { kind: "read_only_session", id: `${user.id}@${exp}`, publicKey: "", type: READ_ONLY_SESSION_TYPE, scheme: "", signature: "" } };
}
