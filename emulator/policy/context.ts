/**
 * Builders for the non-chain keywords: `activity`, `approvers`, `credentials`, `wallet`,
 * `private_key`, `wallet_account`. Chain keywords are built in context-<chain>.ts.
 */
import type { ActivityPolicy } from "./activity-taxonomy.js";

export interface ActivityContext {
  type: string;
  kind: string;
  resource?: string;
  action?: string;
  params: Record<string, unknown>;
}

const PREFIX = "ACTIVITY_TYPE_";

/** `ACTIVITY_TYPE_SIGN_TRANSACTION_V2` → `SIGN_TRANSACTION` (version suffix dropped). */
export function activityKind(type: string): string {
  return type.replace(/^ACTIVITY_TYPE_/, "").replace(/_V\d+$/, "");
}

/**
 * The `activity` keyword for an activity type (with or without the `ACTIVITY_TYPE_`
 * prefix), its intent (the camelCase request `parameters`) and what the taxonomy says of the
 * type (`policy`: its registry entry's, `rt.registry.policyOf`). Only the declared params
 * are exposed; anything else is absent (MissingField when read), as are resource and action
 * for a type without `policy`.
 */
export function buildActivityContext(activityType: string, intent: Record<string, unknown> = {}, policy?: ActivityPolicy): ActivityContext {
  const bare = activityType.startsWith(PREFIX) ? activityType.slice(PREFIX.length) : activityType;
  const params: Record<string, unknown> = {};
  for (const [name, field, whenMissing] of policy?.params ?? []) {
    const v = Object.prototype.hasOwnProperty.call(intent, field) ? intent[field] : undefined;
    if (v !== undefined && v !== null) params[name] = v;
    else if (whenMissing !== undefined) params[name] = whenMissing;
  }
  const ctx: ActivityContext = { type: PREFIX + bare, kind: activityKind(bare), params };
  if (policy) {
    ctx.resource = policy.resource;
    ctx.action = policy.action;
  }
  return ctx;
}

export interface UserLike {
  userId: string;
  userName?: string;
  userEmail?: string;
  userTags?: readonly string[];
}

/** One element of `approvers`: `{id, tags, email, alias}`. */
export function approverContext(u: UserLike): Record<string, unknown> {
  return { id: u.userId, tags: [...(u.userTags ?? [])], email: u.userEmail ?? "", alias: u.userName ?? "" };
}

export interface CredentialLike {
  /** Id of the API key / authenticator. */
  id: string;
  userId: string;
  /** CREDENTIAL_TYPE_* */
  type: string;
  publicKey: string;
  /** WebAuthn credential id (passkeys only). */
  credentialId?: string;
}

/** One element of `credentials`: `{id, user_id, type, credential_id?, public_key}`. */
export function credentialContext(c: CredentialLike): Record<string, unknown> {
  const out: Record<string, unknown> = { id: c.id, user_id: c.userId, type: c.type, public_key: c.publicKey };
  if (c.credentialId !== undefined) out.credential_id = c.credentialId;
  return out;
}

/** `wallet` / element of `wallets`: `{id, imported, exported, label}`. */
export function walletContext(w: { walletId: string; walletName: string; imported: boolean; exported: boolean }): Record<string, unknown> {
  return { id: w.walletId, imported: w.imported, exported: w.exported, label: w.walletName };
}

/** `private_key`: `{id, tags, imported, exported, label}`. */
export function privateKeyContext(k: {
  privateKeyId: string;
  privateKeyName: string;
  privateKeyTags?: readonly string[];
  imported: boolean;
  exported: boolean;
}): Record<string, unknown> {
  return { id: k.privateKeyId, tags: [...(k.privateKeyTags ?? [])], imported: k.imported, exported: k.exported, label: k.privateKeyName };
}

/** `wallet_account`: `{address}`. */
export function walletAccountContext(address: string): Record<string, unknown> {
  return { address };
}
