/**
 * Request authentication: find the stamp header, verify it over the raw body bytes, and
 * resolve its credential to a caller visible from the target organization.
 */
import { DOCUMENTED_ERRORS } from "../error-catalogue.js";
import type { IncomingHttpHeaders } from "node:http";
import { documentedError } from "../errors.js";
import { isUuid } from "../ids.js";
import type { Runtime } from "../runtime.js";
import type { OrganizationRow } from "../store/organizations.js";
import { parseApiKeyStamp, verifyApiKeyStamp, verifyApiKeyStampOffThread, SCHEME_CURVE } from "./stamp.js";
import { findApiKey, findAuthenticator, type Caller } from "./caller.js";
import { parseWebAuthnStamp, verifyWebAuthnStamp, type WebAuthnStamp } from "./webauthn.js";
import { parseAttestedStamp, resolveAttestedCaller, verifyAttestedStamp, type AttestedStamp } from "./attested.js";
import { resolveReadOnlySession, sessionHeader } from "./read-only-session.js";

export const NO_STAMP = DOCUMENTED_ERRORS.NO_STAMP.message;

/** Verifies the stamp's signature; independent of any stored state. */
export type VerifiedStamp =
  | { kind: "api_key"; publicKey: string; scheme: string; signature: string }
  /** A WebAuthn assertion can only be checked once its stored credential key is known. */
  | { kind: "webauthn"; stamp: WebAuthnStamp; rawBody: Buffer }
  /** Signature checked; the attestation is checked once the target organization is known. */
  | { kind: "attested"; stamp: AttestedStamp }
  /** No stamp, a read-only session in X-Session (queries only); checked once the target is known. */
  | { kind: "read_only_session"; token: string };

/**
 * `offThread`: check an API-key signature on the thread pool (auth/stamp.ts), worth it only
 * when other requests are waiting for the event loop; the answer is then a promise.
 * `readOnlySession`: a request without a stamp may carry a read-only session (queries); without
 * it, an X-Session header alone is a request without a stamp (activities).
 */
export function verifyStamp(headers: IncomingHttpHeaders, rawBody: Buffer, opts: { offThread?: boolean; readOnlySession?: boolean } = {}): VerifiedStamp | Promise<VerifiedStamp> {
  const xStamp = headers["x-stamp"];
  if (typeof xStamp === "string" && xStamp) {
    const stamp = parseApiKeyStamp(xStamp);
    const verified: VerifiedStamp = { kind: "api_key", publicKey: stamp.publicKey, scheme: stamp.scheme, signature: stamp.signature };
    if (opts.offThread) {
      return verifyApiKeyStampOffThread(stamp, rawBody).then((ok) => {
        if (!ok) throw documentedError("API_KEY_SIGNATURE_INVALID");
        return verified;
      });
    }
    if (!verifyApiKeyStamp(stamp, rawBody)) throw documentedError("API_KEY_SIGNATURE_INVALID");
    return verified;
  }
  const webauthn = headers["x-stamp-webauthn"];
  if (typeof webauthn === "string" && webauthn) {
    return { kind: "webauthn", stamp: parseWebAuthnStamp(webauthn), rawBody };
  }
  const attested = headers["x-stamp-attested"];
  if (typeof attested === "string" && attested) {
    const stamp = parseAttestedStamp(attested);
    verifyAttestedStamp(stamp, rawBody);
    return { kind: "attested", stamp };
  }
  const session = opts.readOnlySession ? sessionHeader(headers) : undefined;
  if (session) return { kind: "read_only_session", token: session };
  throw documentedError("NO_STAMP");
}

export function targetOrganization(rt: Runtime, organizationId: unknown): OrganizationRow {
  if (!isUuid(organizationId)) throw documentedError("MALFORMED_ORGANIZATION_ID", undefined, "organizationId");
  const org = rt.store.organizations.get(organizationId);
  if (!org || rt.store.subOrganizations.isDeleted(org.id)) throw documentedError("ORGANIZATION_NOT_FOUND", organizationId);
  return org;
}

/** `now`: the request's instant (an API key's expiry is checked at it). */
export function resolveCaller(rt: Runtime, stamp: VerifiedStamp, target: OrganizationRow, now: number): Caller {
  if (stamp.kind === "attested") return resolveAttestedCaller(rt, stamp.stamp, target);
  if (stamp.kind === "read_only_session") return resolveReadOnlySession(rt, stamp.token, target);
  if (stamp.kind === "webauthn") {
    const { authenticator, org } = findAuthenticator(rt.store, target, stamp.stamp.credentialId);
    if (!verifyWebAuthnStamp(stamp.stamp, stamp.rawBody, authenticator.publicKey)) throw documentedError("WEBAUTHN_SIGNATURE_INVALID");
    const user = rt.store.users.byId(authenticator.userId);
    if (!user) throw documentedError("CREDENTIAL_ID_NOT_FOUND");
    return {
      user,
      org,
      credential: {
        kind: "authenticator",
        id: authenticator.id,
        publicKey: authenticator.publicKey,
        type: "CREDENTIAL_TYPE_WEBAUTHN_AUTHENTICATOR",
        scheme: "SIGNATURE_SCHEME_TK_API_P256",
        signature: stamp.stamp.signature,
      },
    };
  }
  const { key, org } = findApiKey(rt.store, target, stamp.publicKey, now);
  // A key registered on one curve does not sign with another curve's scheme.
  if (curveOfCredential(key.credentialType) !== SCHEME_CURVE[stamp.scheme as keyof typeof SCHEME_CURVE]) {
    throw documentedError("API_KEY_SIGNATURE_INVALID");
  }
  const user = rt.store.users.byId(key.userId);
  if (!user) throw documentedError("PUBLIC_KEY_NOT_FOUND");
  return {
    user,
    org,
    credential: { kind: "api_key", id: key.id, publicKey: key.publicKey, type: key.credentialType, scheme: stamp.scheme, signature: stamp.signature },
    apiKey: key,
  };
}

/** The API-key curve of a stored credential type: every session and login key is P-256. */
function curveOfCredential(credentialType: string): string {
  if (credentialType === "CREDENTIAL_TYPE_API_KEY_SECP256K1") return "API_KEY_CURVE_SECP256K1";
  if (credentialType === "CREDENTIAL_TYPE_API_KEY_ED25519") return "API_KEY_CURVE_ED25519";
  return "API_KEY_CURVE_P256";
}
