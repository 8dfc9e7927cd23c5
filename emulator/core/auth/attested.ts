/**
 * `X-Stamp-Attested`: base64url(JSON {publicKeyAttestation, scheme, publicKey, signature}).
 * The signature is an X-Stamp P-256 signature over the body; the attestation binds the key:
 *  - STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN: an OTP verification token issued here,
 *    unexpired and unused, whose `public_key` is the stamp key; the caller is the user with
 *    the token's contact;
 *  - STAMP_ATTESTED_SCHEME_P256_OIDC: an id_token of a trusted issuer whose nonce is
 *    sha256(publicKey hex); the caller is the user holding the OAuth provider {iss, sub, aud}.
 * Only `stamp_login` accepts such stamps (the stamp vouches for a login), and `approve_activity`
 * where it presents an MFA method (engine/mfa.ts; the engine refuses it as a plain vote).
 */
import { unauthenticated, documentedError } from "../errors.js";
import { compressedP256Hex, verifyEs256Jwt } from "../../bundles/index.js";
import type { Runtime } from "../runtime.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { UserRow } from "../store/users.js";
import { verifyApiKeyStamp } from "./stamp.js";
import { checkNonce, verifyOidcToken } from "./oidc-tokens.js";
import { findUsersByContact } from "./contacts.js";
import type { Caller } from "./caller.js";

export const SCHEME_VERIFICATION_TOKEN = "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN";
export const SCHEME_OIDC = "STAMP_ATTESTED_SCHEME_P256_OIDC";
export const ATTESTED_ACTIVITY_TYPES = new Set(["ACTIVITY_TYPE_STAMP_LOGIN", "ACTIVITY_TYPE_APPROVE_ACTIVITY"]);

export type AttestedStamp = { publicKeyAttestation: string; scheme: string; publicKey: string; signature: string };

/** Parses the header: base64url JSON as @turnkey/core sends it; plain JSON as the docs describe it. */
export function parseAttestedStamp(header: string): AttestedStamp {
  const text = header.trim().startsWith("{") ? header.trim() : Buffer.from(header.trim(), "base64url").toString("utf8");
  let s: Partial<AttestedStamp> | null;
  try {
    s = JSON.parse(text);
  } catch {
    throw documentedError("MALFORMED_ACTIVITY_STAMP");
  }
  if (!s || typeof s !== "object" || [s.publicKeyAttestation, s.scheme, s.publicKey, s.signature].some((v) => typeof v !== "string"))
    throw documentedError("MALFORMED_ACTIVITY_STAMP");
  if (s.scheme !== SCHEME_VERIFICATION_TOKEN && s.scheme !== SCHEME_OIDC) throw unauthenticated(`unsupported attested stamp scheme: ${s.scheme}`, "SIGNATURE_INVALID");
  return { publicKeyAttestation: s.publicKeyAttestation!, scheme: s.scheme, publicKey: s.publicKey!.toLowerCase(), signature: s.signature! };
}

/** Checks the signature over the raw body, and that the body is an activity attested stamps may authorize. */
export function verifyAttestedStamp(stamp: AttestedStamp, rawBody: Buffer): void {
  if (!verifyApiKeyStamp({ publicKey: stamp.publicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature: stamp.signature }, rawBody))
    throw documentedError("API_KEY_SIGNATURE_INVALID");
  let type: unknown;
  try {
    type = JSON.parse(rawBody.toString("utf8"))?.type;
  } catch {
    type = undefined;
  }
  if (typeof type !== "string" || !ATTESTED_ACTIVITY_TYPES.has(type))
    throw unauthenticated("X-Stamp-Attested stamps are only accepted for stamp_login (ACTIVITY_TYPE_STAMP_LOGIN) and for approve_activity presenting an MFA method", "UNAUTHENTICATED");
}

/** Organizations a login addressed to `target` may land in: the target, or (top-level target) its sub-organizations. */
export function loginOrganizations(rt: Runtime, target: OrganizationRow): OrganizationRow[] {
  if (target.parentId) return [target];
  return [target, ...rt.store.organizations.children(target.id).filter((o) => !rt.store.subOrganizations.isDeleted(o.id))];
}

function single(found: { user: UserRow; org: OrganizationRow }[], what: string): { user: UserRow; org: OrganizationRow } {
  if (!found.length) throw unauthenticated(`no user found for the ${what} in organization or its sub-organizations`, "CREDENTIAL_NOT_FOUND");
  if (new Set(found.map((f) => f.org.id)).size > 1) throw unauthenticated(`more than one suborg associated with the ${what}`, "CREDENTIAL_CONFLICT");
  return found[0]!;
}

export function resolveAttestedCaller(rt: Runtime, stamp: AttestedStamp, target: OrganizationRow): Caller {
  const now = rt.clock.now();
  const orgs = loginOrganizations(rt, target);
  let found: { user: UserRow; org: OrganizationRow };
  let credentialId: string;
  if (stamp.scheme === SCHEME_VERIFICATION_TOKEN) {
    let claims: Record<string, unknown>;
    try {
      claims = verifyEs256Jwt(stamp.publicKeyAttestation, rt.keys.enclave.tlsFetcher.publicKey).payload;
    } catch {
      throw unauthenticated("invalid verification token in attested stamp", "SIGNATURE_INVALID");
    }
    const record = typeof claims.id === "string" ? rt.store.verificationTokens.get(claims.id) : undefined;
    if (!record) throw unauthenticated("verification token was not issued by this emulator", "SIGNATURE_INVALID");
    if (record.expiresAt <= now) throw unauthenticated("verification token expired", "UNAUTHENTICATED");
    if (record.usedAt !== null) throw unauthenticated("verification token has already been used", "UNAUTHENTICATED");
    if (!record.publicKey || !sameP256Key(record.publicKey, stamp.publicKey))
      throw unauthenticated("attested stamp public key does not match the verification token's public_key", "SIGNATURE_INVALID");
    const allowed = orgs.filter((o) => o.id === record.orgId || o.parentId === record.orgId);
    found = single(
      allowed.flatMap((org) => findUsersByContact(rt, org.id, record.verificationType, record.contact).map((user) => ({ user, org }))),
      "verification token's contact",
    );
    credentialId = record.id;
  } else {
    const claims = verifyOidcToken(rt, stamp.publicKeyAttestation, "X-Stamp-Attested.publicKeyAttestation");
    checkNonce(claims, stamp.publicKey, "X-Stamp-Attested.publicKeyAttestation");
    const ids = new Set(orgs.map((o) => o.id));
    const providers = rt.store.oauthProviders.byIdentity(claims.iss, claims.sub, claims.aud).filter((p) => ids.has(p.orgId));
    found = single(
      providers.map((p) => ({ user: rt.store.users.byId(p.userId)!, org: orgs.find((o) => o.id === p.orgId)! })),
      "OIDC token's issuer, subject and audience",
    );
    credentialId = providers.find((p) => p.orgId === found.org.id)!.id;
  }
  return {
    user: found.user,
    org: found.org,
    credential: { kind: "attested", id: credentialId, publicKey: stamp.publicKey, type: "CREDENTIAL_TYPE_LOGIN", scheme: stamp.scheme, signature: stamp.signature },
  };
}

export function sameP256Key(a: string, b: string): boolean {
  try {
    return compressedP256Hex(a) === compressedP256Hex(b);
  } catch {
    return false;
  }
}
