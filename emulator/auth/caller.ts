/**
 * Who is calling: the stamp's credential resolved to a user. A key is looked up in the
 * target organization, then in its parent; a parent-org target also finds keys of its
 * sub-organizations (a sub-org user addressing the parent id, as login flows do).
 */
import type { Store } from "../store/index.js";
import type { ApiKeyRow } from "../store/api-keys.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { UserRow } from "../store/users.js";
import { unauthenticated } from "../errors.js";

export type Credential = {
  kind: "api_key" | "authenticator";
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

/** The API key with this public key visible from `target`, and the organization that holds it. */
export function findApiKey(store: Store, target: OrganizationRow, publicKey: string, now: number): { key: ApiKeyRow; org: OrganizationRow } {
  const candidates: { key: ApiKeyRow; org: OrganizationRow }[] = [];
  const inOrg = (org: OrganizationRow) => store.apiKeys.byPublicKey(org.id, publicKey).map((key) => ({ key, org }));
  candidates.push(...inOrg(target));
  if (!candidates.length && target.parentId) {
    const parent = store.organizations.get(target.parentId);
    if (parent) candidates.push(...inOrg(parent));
  }
  if (!candidates.length && !target.parentId) {
    const inSubOrgs = store.apiKeys
      .byPublicKeyAnywhere(publicKey)
      .map((key) => ({ key, org: store.organizations.get(key.orgId)! }))
      .filter((c) => c.org?.parentId === target.id);
    const orgIds = new Set(inSubOrgs.map((c) => c.org.id));
    if (orgIds.size > 1) throw unauthenticated("more than one suborg associated with a public key", "CREDENTIAL_CONFLICT");
    candidates.push(...inSubOrgs);
  }
  if (!candidates.length) throw unauthenticated(KEY_NOT_FOUND, "PUBLIC_KEY_NOT_FOUND");
  const live = candidates.find((c) => c.key.expiresAt === null || c.key.expiresAt > now);
  if (!live) throw unauthenticated(expiredKeyMessage(publicKey), "API_KEY_EXPIRED");
  return live;
}
