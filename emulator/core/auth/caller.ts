/**
 * Who is calling: the stamp's credential resolved to a user. A key is looked up in the
 * target organization, then in its parent; a parent-org target also finds keys of its
 * sub-organizations (a sub-org user addressing the parent id, as login flows do). Finding the
 * caller decides nothing about access: auth/access.ts decides which organization a caller
 * may address, for every operation.
 */
import { DOCUMENTED_ERRORS, documentedMessage } from "../error-catalogue.js";
import type { Store } from "../store/index.js";
import type { ApiKeyRow } from "../store/api-keys.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { UserRow } from "../store/users.js";
import type { AuthenticatorRow } from "../store/authenticators.js";
import { documentedError } from "../errors.js";

export type Credential = {
  /**
   * "attested": an X-Stamp-Attested login stamp (verification token or OIDC token);
   * "read_only_session": an X-Session header (queries only, auth/read-only-session.ts).
   */
  kind: "api_key" | "authenticator" | "attested" | "read_only_session";
  id: string;
  publicKey: string;
  /** CREDENTIAL_TYPE_* of the credential. */
  type: string;
  scheme: string;
  signature: string;
};

export type Caller = {
  user: UserRow;
  /** The organization the credential belongs to. */
  org: OrganizationRow;
  credential: Credential;
  /** The API key's row as the stamp's resolution read it (an API-key stamp), so that nothing later reads it again. */
  apiKey?: ApiKeyRow;
};

export const KEY_NOT_FOUND = DOCUMENTED_ERRORS.PUBLIC_KEY_NOT_FOUND.message;

export function expiredKeyMessage(publicKey: string): string {
  // The SDKs recognise an expired session by this substring.
  return documentedMessage("EXPIRED_API_KEY", `publicKey ${publicKey}`);
}

/**
 * Credentials matching a lookup, as seen from `target`: those of the target itself, else of
 * its parent, else (for a top-level target) of exactly one of its sub-organizations.
 */
function visibleFrom<T extends { orgId: string }>(
  store: Store,
  target: OrganizationRow,
  inOrg: (orgId: string) => T[],
  anywhere: () => T[],
  conflict: "PUBLIC_KEY_CONFLICT" | "CREDENTIAL_ID_CONFLICT",
): { item: T; org: OrganizationRow }[] {
  const found = inOrg(target.id).map((item) => ({ item, org: target }));
  if (found.length) return found;
  if (target.parentId) {
    const parent = store.organizations.get(target.parentId);
    return parent ? inOrg(parent.id).map((item) => ({ item, org: parent })) : [];
  }
  const inSubOrgs = anywhere()
    .map((item) => ({ item, org: store.organizations.get(item.orgId)! }))
    .filter((c) => c.org?.parentId === target.id);
  if (new Set(inSubOrgs.map((c) => c.org.id)).size > 1) throw documentedError(conflict);
  return inSubOrgs;
}

/** The API key with this public key visible from `target`, and the organization that holds it. */
export function findApiKey(store: Store, target: OrganizationRow, publicKey: string, now: number): { key: ApiKeyRow; org: OrganizationRow } {
  const candidates = visibleFrom(
    store,
    target,
    (orgId) => store.apiKeys.byPublicKey(orgId, publicKey),
    () => store.apiKeys.byPublicKeyAnywhere(publicKey),
    "PUBLIC_KEY_CONFLICT",
  );
  if (!candidates.length) throw documentedError("PUBLIC_KEY_NOT_FOUND");
  const live = candidates.find((c) => c.item.expiresAt === null || c.item.expiresAt > now);
  if (!live) throw documentedError("EXPIRED_API_KEY", `publicKey ${publicKey}`);
  return { key: live.item, org: live.org };
}

export const CREDENTIAL_NOT_FOUND = DOCUMENTED_ERRORS.CREDENTIAL_ID_NOT_FOUND.message;

/** The passkey with this credential id visible from `target`. */
export function findAuthenticator(store: Store, target: OrganizationRow, credentialId: string): { authenticator: AuthenticatorRow; org: OrganizationRow } {
  const id = credentialId.replace(/=+$/, "");
  const candidates = visibleFrom(
    store,
    target,
    (orgId) => store.authenticators.byCredentialId(id).filter((a) => a.orgId === orgId),
    () => store.authenticators.byCredentialId(id),
    "CREDENTIAL_ID_CONFLICT",
  );
  if (!candidates.length) throw documentedError("CREDENTIAL_ID_NOT_FOUND");
  return { authenticator: candidates[0]!.item, org: candidates[0]!.org };
}
