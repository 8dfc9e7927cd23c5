/** Passkeys: create_authenticators (V2) and delete_authenticators. */
import { invalidArgument, notFound, documentedError } from "../../errors.js";
import { newId } from "../../ids.js";
import { readAttestation } from "../../auth/webauthn.js";
import { checkName, requireDistinct, requireUser } from "../lookups.js";
import type { ActivityContext } from "../types.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

export const MAX_AUTHENTICATORS_PER_USER = 10;

export type AuthenticatorParams = {
  authenticatorName: string;
  challenge: string;
  attestation: { credentialId: string; clientDataJson: string; attestationObject: string; transports: string[] };
};

/** Registers passkeys for one user; shared by users, sub-organizations and signup. */
export function addAuthenticators(ctx: ActivityContext, orgId: string, userId: string, list: AuthenticatorParams[], field: string): string[] {
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
    const id = newId();
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

export const authenticatorOperations = [
  defineActivity("create_authenticators", {
    policy: { resource: "CREDENTIAL", action: "CREATE", source: "documented" },
    arrayLimits: { authenticators: ALLOWANCE.credentialsPerUser },
    authorization: "own-credential",
    run(ctx, p) {
      requireUser(ctx.rt.store, ctx.org.id, p.userId, "parameters.userId");
      if (!p.authenticators.length) throw invalidArgument("authenticators must not be empty", "parameters.authenticators");
      return { authenticatorIds: addAuthenticators(ctx, ctx.org.id, p.userId, p.authenticators, "parameters.authenticators") };
    },
  }),

  defineActivity("delete_authenticators", {
    policy: { resource: "CREDENTIAL", action: "DELETE", source: "documented" },
    authorization: "own-credential",
    run(ctx, p) {
      const { store } = ctx.rt;
      requireUser(store, ctx.org.id, p.userId, "parameters.userId");
      if (!p.authenticatorIds.length) throw invalidArgument("authenticatorIds must not be empty", "parameters.authenticatorIds");
      requireDistinct(p.authenticatorIds, "parameters.authenticatorIds");
      for (const id of p.authenticatorIds) {
        const a = store.authenticators.get(ctx.org.id, id);
        if (!a || a.userId !== p.userId) throw notFound(`authenticator not found for user ${p.userId}: ${id}`);
        store.authenticators.delete(id);
      }
      return { authenticatorIds: p.authenticatorIds };
    },
  }),
];
