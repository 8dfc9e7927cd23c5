/**
 * Who is calling: the stamp's credential resolved to a user. A key is looked up in the
 * target organization, then in its parent; a parent-org target also finds keys of its
 * sub-organizations (a sub-org user addressing the parent id, as login flows do). Finding the
 * caller decides nothing about access: auth/access.ts decides which organization a caller
 * may address, for every operation.
 */
import type { Store } from "../store/index.js";
import type { ApiKeyRow } from "../store/api-keys.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { UserRow } from "../store/users.js";
import type { AuthenticatorRow } from "../store/authenticators.js";
import { unauthenticated } from "../errors.js";

export type Credential = {
  /** "attested": an X-Stamp-Attested login stamp (verification token or OIDC token). */
  kind: "api_key" | "authenticator" | "attested";
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
};

export const KEY_NOT_FOUND = "could not find public key in organization or its parent organization";

export function expiredKeyMessage(publicKey: string): string {
  // The SDKs recognise an expired session by this substring.
  return `rpc error: code = Unauthenticated desc = expired api key publicKey ${publicKey}`;
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
  conflict: string,
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
  if (new Set(inSubOrgs.map((c) => c.org.id)).size > 1) throw unauthenticated(conflict, "CREDENTIAL_CONFLICT");
  return inSubOrgs;
}

/** The API key with this public key visible from `target`, and the organization that holds it. */
export function findApiKey(store: Store, target: OrganizationRow, publicKey: string, now: number): { key: ApiKeyRow; org: OrganizationRow } {
  const candidates = visibleFrom(
    store,
    target,
    (orgId) => store.apiKeys.byPublicKey(orgId, publicKey),
    () => store.apiKeys.byPublicKeyAnywhere(publicKey),
    "more than one suborg associated with a public key",
  );
  if (!candidates.length) throw unauthenticated(KEY_NOT_FOUND, "PUBLIC_KEY_NOT_FOUND");
  const live = candidates.find((c) => c.item.expiresAt === null || c.item.expiresAt > now);
  if (!live) throw unauthenticated(expiredKeyMessage(publicKey), "API_KEY_EXPIRED");
  return { key: live.item, org: live.org };
}

export const CREDENTIAL_NOT_FOUND = "credential ID could not be found in organization or its parent organization";

/** The passkey with this credential id visible from `target`. */
export function findAuthenticator(store: Store, target: OrganizationRow, credentialId: string): { authenticator: AuthenticatorRow; org: OrganizationRow } {
  const id = credentialId.replace(/=+$/, "");
  const candidates = visibleFrom(
    store,
    target,
    (orgId) => store.authenticators.byCredentialId(id).filter((a) => a.orgId === orgId),
    () => store.authenticators.byCredentialId(id),
    "more than one suborg associated with a credential ID",
  );
  if (!candidates.length) throw unauthenticated(CREDENTIAL_NOT_FOUND, "CREDENTIAL_NOT_FOUND");
  return { authenticator: candidates[0]!.item, org: candidates[0]!.org };
}
