/**
 * Passkeys: the one place an attested authenticator is registered on a user (create_authenticators,
 * users and sub-organizations with passkeys, recover_user), within the per-user limit, each
 * credential id once per organization.
 */
import { invalidArgument, documentedError } from "../../core/errors.js";
import { readAttestation } from "../../core/auth/webauthn.js";
import { checkName } from "../../core/vocabulary/lookups.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";

export const MAX_AUTHENTICATORS_PER_USER = 10;

export type AuthenticatorParams = {
  authenticatorName: string;
  challenge: string;
  attestation: { credentialId: string; clientDataJson: string; attestationObject: string; transports: string[] };
};

/** Registers passkeys for one user; returns their ids. */
export function addAuthenticators(ctx: DomainContext, orgId: string, userId: string, list: AuthenticatorParams[], field: string): string[] {
  const { store } = ctx.rt;
  if (store.authenticators.forUser(userId).length + list.length > MAX_AUTHENTICATORS_PER_USER) {
    throw documentedError("MAX_AUTHENTICATORS", `at most ${MAX_AUTHENTICATORS_PER_USER} per user`);
  }
  const seen = new Set<string>();
  return list.map((a, i) => {
    const f = `${field}[${i}]`;
    checkName(a.authenticatorName, `${f}.authenticatorName`);
    const cred = readAttestation(a.attestation, a.challenge, f);
    if (seen.has(cred.credentialId) || store.authenticators.byCredentialId(cred.credentialId).some((x) => x.orgId === orgId)) {
      throw invalidArgument(`an authenticator with credential ID ${cred.credentialId} already exists`, `${f}.attestation.credentialId`);
    }
    seen.add(cred.credentialId);
    const id = ctx.rt.random.uuid();
    store.authenticators.insert({
      id,
      orgId,
      userId,
      name: a.authenticatorName,
      credentialId: cred.credentialId,
      publicKey: cred.publicKey,
      aaguid: cred.aaguid,
      attestationType: cred.attestationType,
      transports: a.attestation.transports ?? [],
      createdAt: ctx.now,
      updatedAt: ctx.now,
    });
    return id;
  });
}
