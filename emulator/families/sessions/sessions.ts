/**
 * Sessions: what every login shares (stamp_login, otp_login, oauth_login and the auth
 * proxy's logins; read-write sessions, OTP and OAuth credential bundles, email recovery). A
 * session key is registered as an expiring API key on the user (`invalidateExisting` first
 * removes the user's earlier keys of that credential type) and a session JWT is signed by
 * the notarizer key; a credential bundle is a fresh key whose private half travels
 * HPKE-sealed to the caller's target key.
 */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { badRequestDetail, GrpcCode, invalidArgument, TurnkeyError, turnkeyErrorDetail, type RpcStatus } from "../../core/errors.js";
import { isUuid } from "../../core/ids.js";
import type { SessionProfileRow } from "./profiles-repository.js";
import { compressedP256Hex, encryptCredentialBundle, generateP256KeyPair, signSessionJwt } from "../../bundles/index.js";
import { insertApiKey } from "../users/index.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import type { Store } from "../../core/store/index.js";
import type { UserRow } from "../../core/store/users.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";
import { quote } from "../../core/input-error.js";
import type { Runtime } from "../../core/runtime.js";
import type { Caller } from "../../core/auth/caller.js";
import { evaluate, parseExpression, type EvaluationContext } from "../../policy/index.js";

export const DEFAULT_SESSION_SECONDS = 900;
/** The service caps sessions at one year (UNCONFIRMED; generous for local use). */
export const MAX_SESSION_SECONDS = 365 * 24 * 3600;

export function sessionSeconds(value: string | undefined, field: string): number {
  if (value === undefined || value === "") return DEFAULT_SESSION_SECONDS;
  if (!/^\d+$/.test(value) || Number(value) <= 0 || Number(value) > MAX_SESSION_SECONDS)
    throw invalidArgument(`expirationSeconds must be a whole number of seconds between 1 and ${MAX_SESSION_SECONDS}`, field);
  return Number(value);
}

/** A P-256 session public key as the SDKs send it: compressed hex (uncompressed accepted and compressed). */
export function sessionPublicKey(value: string, field: string): string {
  if (!/^(0[23][0-9a-fA-F]{64}|04[0-9a-fA-F]{128})$/.test(value)) throw invalidArgument(`invalid P-256 public key: ${value}`, field);
  try {
    return compressedP256Hex(value);
  } catch {
    throw invalidArgument(`invalid P-256 public key: ${value}`, field);
  }
}

/** Registers a P-256 key as an expiring API key of `user`; returns the key id. */
export function registerExpiringKey(
  ctx: DomainContext,
  p: { org: OrganizationRow; user: UserRow; publicKey: string; seconds: number; credentialType: string; name: string; invalidateExisting?: boolean; sessionProfileId?: string },
): string {
  const { store } = ctx.rt;
  for (const k of store.apiKeys.forUser(p.user.id)) {
    // A login key reused for a new session replaces its earlier registration.
    if ((p.invalidateExisting && k.credentialType === p.credentialType) || k.publicKey === p.publicKey) store.apiKeys.delete(k.id);
  }
  const keyOf = { id: ctx.rt.random.uuid(), orgId: p.org.id, userId: p.user.id, name: p.name, publicKey: p.publicKey, credentialType: p.credentialType, expirationSeconds: String(p.seconds), sessionProfileId: p.sessionProfileId };
  const id = insertApiKey(store, keyOf, ctx.now);
  return id;
}

export type LoginParams = { publicKey: string; expirationSeconds?: string; invalidateExisting?: boolean; sessionProfileId?: string };

/**
 * The session profiles an organization sees: its own and its parent's, oldest first
 * ("Sub-organizations can see session profiles created by their parent organization",
 * tkhq/docs features/authentication/sessions/session-profiles.mdx:94).
 */
export function visibleSessionProfiles(store: Store, org: OrganizationRow): SessionProfileRow[] {
  const own = store.sessionProfiles.forOrg(org.id);
  if (!org.parentId) return own;
  return [...store.sessionProfiles.forOrg(org.parentId), ...own].sort((a, b) => a.createdAt - b.createdAt);
}

/** One session profile `org` sees (its own or its parent's), by id. */
export function findSessionProfile(store: Store, org: OrganizationRow, id: string): SessionProfileRow | undefined {
  return store.sessionProfiles.get(org.id, id) ?? (org.parentId ? store.sessionProfiles.get(org.parentId, id) : undefined);
}

/**
 * The session profile a login names: the login organization's own, or its parent's (profiles
 * are created by the parent organization for its sub-organizations' sessions). Unknown: 404.
 */
export function requireSessionProfile(ctx: DomainContext, org: OrganizationRow, id: string): SessionProfileRow {
  const field = "parameters.sessionProfileId";
  if (!isUuid(id)) throw invalidArgument(`invalid session profile UUID: ${quote(id)}`, field);
  const found = findSessionProfile(ctx.rt.store, org, id);
  if (!found) {
    const message = `session profile not found: ${id}`;
    throw new TurnkeyError(GrpcCode.NOT_FOUND, message, [turnkeyErrorDetail("UNSPECIFIED"), badRequestDetail(field, message)]);
  }
  return found;
}

/** A session's lifetime: the shorter of the login's and the profile's; the default when neither is set. */
export function loginSeconds(requested: string | undefined, profile: SessionProfileRow | undefined): number {
  const asked = requested === undefined || requested === "" ? undefined : sessionSeconds(requested, "parameters.expirationSeconds");
  const cap = profile?.expirationSeconds ? Number(profile.expirationSeconds) : undefined;
  if (asked === undefined) return cap ?? DEFAULT_SESSION_SECONDS;
  return cap === undefined ? asked : Math.min(asked, cap);
}

/**
 * Registers the login key and returns the session JWT (stamp_login, otp_login, oauth_login).
 * With a session profile, the session is named after it (`session_type`), carries its id and
 * scope, lasts no longer than it allows, and its key records the profile.
 */
export function issueLoginSession(ctx: DomainContext, org: OrganizationRow, user: UserRow, p: LoginParams): string {
  const publicKey = sessionPublicKey(p.publicKey, "parameters.publicKey");
  const profile = p.sessionProfileId ? requireSessionProfile(ctx, org, p.sessionProfileId) : undefined;
  const seconds = loginSeconds(p.expirationSeconds, profile);
  registerExpiringKey(ctx, {
    org,
    user,
    publicKey,
    seconds,
    credentialType: "CREDENTIAL_TYPE_LOGIN",
    name: `Session Key ${new Date(ctx.now).toISOString()}`,
    invalidateExisting: p.invalidateExisting,
    sessionProfileId: profile?.id,
  });
  return signSessionJwt(
    {
      exp: Math.floor(ctx.now / 1000) + seconds,
      public_key: publicKey,
      session_type: profile ? profile.name : "SESSION_TYPE_READ_WRITE",
      user_id: user.id,
      organization_id: org.id,
      ...(profile ? { session_profile_id: profile.id, scope: profile.scope } : {}),
    },
    ctx.rt.keys.enclave.notarizer,
  );
}

/**
 * A fresh API key for `user`, registered as `credentialType`, whose private half travels
 * HPKE-sealed to `targetPublicKey` as a credentialBundle.
 */
export function issueCredentialBundle(
  ctx: DomainContext,
  p: { org: OrganizationRow; user: UserRow; targetPublicKey: string; expirationSeconds?: string; credentialType: string; name: string; invalidateExisting?: boolean },
): { apiKeyId: string; credentialBundle: string } {
  const target = sessionPublicKey(p.targetPublicKey, "parameters.targetPublicKey");
  const seconds = sessionSeconds(p.expirationSeconds, "parameters.expirationSeconds");
  const key = generateP256KeyPair(ctx.rt.random);
  const apiKeyId = registerExpiringKey(ctx, {
    org: p.org,
    user: p.user,
    publicKey: bytesToHex(p256.getPublicKey(key.privateKey, true)),
    seconds,
    credentialType: p.credentialType,
    name: p.name,
    invalidateExisting: p.invalidateExisting,
  });
  return { apiKeyId, credentialBundle: encryptCredentialBundle(key.privateKey, target, { random: ctx.rt.random }) };
}

/**
 * A session made under a session profile (`sessionProfileId` at login) may only propose what
 * the profile's scope, a policy-language condition over the same context as policies, allows:
 * false, or an evaluation error, denies before any policy or quorum is consulted. Scope bounds
 * the session; policies still decide what is inside it. `context` gives the activity's policy
 * context (asked only when the session has a profile).
 */
export function sessionScopeDenial(rt: Runtime, caller: Caller, context: () => EvaluationContext): RpcStatus | undefined {
  if (caller.credential.kind !== "api_key") return undefined;
  const profileId = (caller.apiKey ?? rt.store.apiKeys.get(caller.org.id, caller.credential.id))?.sessionProfileId;
  if (!profileId) return undefined;
  const profile = findSessionProfile(rt.store, caller.org, profileId);
  if (!profile) return undefined;
  const scoped = context();
  let allowed: boolean;
  let why = "";
  try {
    allowed = evaluate(parseExpression(profile.scope, { label: "condition", stored: true }), scoped);
  } catch (e) {
    allowed = false;
    why = `: ${(e as Error).message}`;
  }
  if (allowed) return undefined;
  return {
    code: GrpcCode.PERMISSION_DENIED,
    message: `request not authorized: the session's profile ${profile.id} (${profile.name}) does not allow this activity: its scope \`${profile.scope}\` is not true${why}`,
    details: [turnkeyErrorDetail("REQUEST_NOT_AUTHORIZED")],
  };
}
