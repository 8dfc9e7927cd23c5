/**
 * The generic add/delete of a user's credentials, once per kind: the same checks in the same
 * order, the kind's own names in the errors, and all-or-nothing deletion.
 */
import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { Store } from "../../core/store/index.js";
import { isTurnkeyError } from "../../core/errors.js";
import type { Runtime } from "../../core/runtime.js";
import type { OrganizationRow } from "../../core/store/organizations.js";
import { createRandom } from "../../core/random.js";
import { API_KEYS, AUTHENTICATORS, OAUTH_PROVIDERS, addCredentials, deleteCredentials, type CredentialKind } from "./credentials.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";

const ORG = "00000000-0000-4000-8000-000000000001";
const ALICE = "00000000-0000-4000-8000-0000000000a1";
const BOB = "00000000-0000-4000-8000-0000000000b0";

function setup(): { ctx: DomainContext; store: Store } {
  const store = Store.open();
  const org: OrganizationRow = { id: ORG, name: "org", parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt: 0, updatedAt: 0 };
  store.organizations.insert(org);
  for (const id of [ALICE, BOB]) store.users.insert({ id, orgId: ORG, name: id, email: null, phone: null, emailVerified: false, phoneVerified: false, createdAt: 0, updatedAt: 0 });
  return { ctx: { rt: { store, random: createRandom() } as unknown as Runtime, now: 1000, org }, store };
}

/** Stores one credential of each kind for `userId` directly, so that deletion is tested apart from adding. */
const seed = {
  apiKeys: (store: Store, id: string, userId: string) =>
    store.apiKeys.insert({ id, orgId: ORG, userId, name: id, publicKey: `02${id.replace(/-/g, "")}`, credentialType: "CREDENTIAL_TYPE_API_KEY_P256", expirationSeconds: null, expiresAt: null, sessionProfileId: null, createdAt: 0, updatedAt: 0 }),
  authenticators: (store: Store, id: string, userId: string) =>
    store.authenticators.insert({ id, orgId: ORG, userId, name: id, credentialId: `cred-${id}`, publicKey: "pk", aaguid: "0", attestationType: "none", transports: [], createdAt: 0, updatedAt: 0 }),
  oauthProviders: (store: Store, id: string, userId: string) =>
    store.oauthProviders.insert({ id, orgId: ORG, userId, name: id, issuer: "https://issuer.example", subject: `sub-${id}`, audience: "aud", createdAt: 0, updatedAt: 0 }),
};

/** The refusal a call ends in: gRPC code, message and the field the error names. */
function refusal(call: () => unknown): { code: number; message: string; field?: string } {
  try {
    call();
  } catch (e) {
    if (!isTurnkeyError(e)) throw e;
    const bad = e.details.find((d) => d["@type"].endsWith("BadRequest")) as { fieldViolations?: { field: string }[] } | undefined;
    return { code: e.code, message: e.message, ...(bad?.fieldViolations?.[0] ? { field: bad.fieldViolations[0].field } : {}) };
  }
  throw new Error("expected a refusal");
}

const kinds: [string, CredentialKind<unknown>, keyof typeof seed, string, string, (s: Store, userId: string) => number][] = [
  ["api keys", API_KEYS, "apiKeys", "apiKeyIds", "api key", (s, u) => s.apiKeys.forUser(u).length],
  ["authenticators", AUTHENTICATORS, "authenticators", "authenticatorIds", "authenticator", (s, u) => s.authenticators.forUser(u).length],
  ["oauth providers", OAUTH_PROVIDERS, "oauthProviders", "providerIds", "oauth provider", (s, u) => s.oauthProviders.forUser(u).length],
];

describe.each(kinds)("deleting %s", (_name, kind, list, idsParam, noun, count) => {
  const ids = ["10000000-0000-4000-8000-000000000001", "10000000-0000-4000-8000-000000000002"];

  it("deletes the user's own, all of them", () => {
    const { ctx, store } = setup();
    for (const id of ids) seed[list](store, id, ALICE);
    expect(deleteCredentials(ctx, kind, ALICE, ids)).toEqual(ids);
    expect(count(store, ALICE)).toBe(0);
  });

  it("refuses an unknown user, an empty list and a repeated id", () => {
    const { ctx } = setup();
    expect(refusal(() => deleteCredentials(ctx, kind, "not-a-uuid", ids))).toEqual({ code: 3, message: 'invalid user UUID: "not-a-uuid"', field: "parameters.userId" });
    expect(refusal(() => deleteCredentials(ctx, kind, "20000000-0000-4000-8000-000000000000", ids))).toEqual({ code: 5, message: "user not found: 20000000-0000-4000-8000-000000000000" });
    expect(refusal(() => deleteCredentials(ctx, kind, ALICE, []))).toEqual({ code: 3, message: `${idsParam} must not be empty`, field: `parameters.${idsParam}` });
    expect(refusal(() => deleteCredentials(ctx, kind, ALICE, [ids[0]!, ids[0]!]))).toEqual({
      code: 3,
      message: `duplicate value in parameters.${idsParam}: ${ids[0]}`,
      field: `parameters.${idsParam}`,
    });
  });

  it("deletes nothing when one id is another user's", () => {
    const { ctx, store } = setup();
    seed[list](store, ids[0]!, ALICE);
    seed[list](store, ids[1]!, BOB);
    expect(refusal(() => deleteCredentials(ctx, kind, ALICE, ids))).toEqual({ code: 5, message: `${noun} not found for user ${ALICE}: ${ids[1]}` });
    expect([count(store, ALICE), count(store, BOB)]).toEqual([1, 1]);
  });
});

describe("adding credentials", () => {
  it.each(kinds)("%s: refuses an unknown user, then an empty list, naming the kind's parameter", (_name, kind, list) => {
    const { ctx } = setup();
    expect(refusal(() => addCredentials(ctx, kind, "20000000-0000-4000-8000-000000000000", []))).toEqual({ code: 5, message: "user not found: 20000000-0000-4000-8000-000000000000" });
    expect(refusal(() => addCredentials(ctx, kind, ALICE, []))).toEqual({ code: 3, message: `${list} must not be empty`, field: `parameters.${list}` });
  });

  it("stores an API key on the user through the kind's own checks", () => {
    const { ctx, store } = setup();
    const publicKey = bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), true));
    const [id] = addCredentials(ctx, API_KEYS, ALICE, [{ apiKeyName: "ci", publicKey, curveType: "API_KEY_CURVE_P256" }]);
    expect(store.apiKeys.get(ORG, id!)).toMatchObject({ userId: ALICE, name: "ci", publicKey, credentialType: "CREDENTIAL_TYPE_API_KEY_P256", expiresAt: null });
    expect(refusal(() => addCredentials(ctx, API_KEYS, ALICE, [{ apiKeyName: "again", publicKey, curveType: "API_KEY_CURVE_P256" }]))).toEqual({
      code: 3,
      message: `api key with public key ${publicKey} already exists for this user`,
      field: "parameters.apiKeys[0].publicKey",
    });
  });
});
