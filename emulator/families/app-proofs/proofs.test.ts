import { describe, expect, it } from "vitest";
import { verifyAppProofSignature } from "@turnkey/crypto";
import { makeAppProof } from "../../bundles/index.js";
import { instanceKeysFor } from "../../core/auth/instance-keys.js";
import type { ActivityRow } from "../../core/store/activities.js";
import { registry } from "../../families.js";
import { addressDerivationsOf as derive, asksForAppProofs, ephemeralKeysFor } from "./proofs.js";

const { operationForActivityType } = registry;

/** What the recorder finds in a completed activity: its entry's `appProofs` over its intent and result. */
const addressDerivationsOf = (a: ActivityRow) => derive(a, operationForActivityType(a.type)?.entry);

const row = (type: string, intent: object, result: object): ActivityRow =>
  ({ seq: 1, id: "a", orgId: "org", type, status: "ACTIVITY_STATUS_COMPLETED", fingerprint: "f", intent, result, failure: null, votes: [], userId: "u", asksAppProofs: false, createdAt: 1, updatedAt: 2 }) as unknown as ActivityRow;

const eth = { path: "m/44'/60'/0'/0/0" };
const sol = { path: "m/44'/501'/0'/0'" };

describe("asksForAppProofs", () => {
  it("reads the flag at the top of the parsed body, or inside the parameters as sent under either name", () => {
    expect(asksForAppProofs({ generateAppProofs: true }, {})).toBe(true);
    expect(asksForAppProofs({}, { parameters: { generateAppProofs: true } })).toBe(true);
    expect(asksForAppProofs({}, { parameters: { generate_app_proofs: true } })).toBe(true);
    expect(asksForAppProofs({}, { parameters: { generateAppProofs: "true" } })).toBe(false);
    expect(asksForAppProofs({ generateAppProofs: false }, { parameters: { generateAppProofs: null } })).toBe(false);
    expect(asksForAppProofs({}, {})).toBe(false);
  });
});

describe("addressDerivationsOf", () => {
  it("pairs each derived address with its wallet and path", () => {
    expect(addressDerivationsOf(row("ACTIVITY_TYPE_CREATE_WALLET", { createWalletIntent: { accounts: [eth, sol] } }, { createWalletResult: { walletId: "w", addresses: ["0xA", "So1"] } }))).toEqual([
      { organizationId: "org", walletId: "w", derivationPath: eth.path, address: "0xA" },
      { organizationId: "org", walletId: "w", derivationPath: sol.path, address: "So1" },
    ]);
    expect(addressDerivationsOf(row("ACTIVITY_TYPE_IMPORT_WALLET", { importWalletIntent: { accounts: [eth] } }, { importWalletResult: { walletId: "wi", addresses: ["0xI"] } }))).toEqual([
      { organizationId: "org", walletId: "wi", derivationPath: eth.path, address: "0xI" },
    ]);
    expect(addressDerivationsOf(row("ACTIVITY_TYPE_CREATE_WALLET_ACCOUNTS", { createWalletAccountsIntent: { walletId: "w2", accounts: [eth] } }, { createWalletAccountsResult: { addresses: ["0xB"] } }))).toEqual([
      { organizationId: "org", walletId: "w2", derivationPath: eth.path, address: "0xB" },
    ]);
    const sub = row("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7", { createSubOrganizationIntentV7: { wallet: { accounts: [eth] } } }, { createSubOrganizationResultV7: { subOrganizationId: "sub", wallet: { walletId: "w3", addresses: ["0xC"] } } });
    expect(addressDerivationsOf(sub)).toEqual([{ organizationId: "sub", walletId: "w3", derivationPath: eth.path, address: "0xC" }]);
  });

  it("finds nothing for activities that derive no address", () => {
    expect(addressDerivationsOf(row("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V7", { createSubOrganizationIntentV7: {} }, { createSubOrganizationResultV7: { subOrganizationId: "sub" } }))).toEqual([]);
    expect(addressDerivationsOf(row("ACTIVITY_TYPE_CREATE_USER_TAG", { createUserTagIntent: {} }, { createUserTagResult: { userTagId: "t" } }))).toEqual([]);
  });
});

describe("ephemeralKeysFor", () => {
  it("is stable per instance, differs between instances, and signs proofs @turnkey/crypto verifies", () => {
    const a = instanceKeysFor("org-a");
    const keys = ephemeralKeysFor(a);
    expect(ephemeralKeysFor(instanceKeysFor("org-a")).signing.publicKey).toEqual(keys.signing.publicKey);
    expect(ephemeralKeysFor(instanceKeysFor("org-b")).signing.publicKey).not.toEqual(keys.signing.publicKey);
    expect(keys.signing.publicKey).not.toEqual(keys.encryption.publicKey);
    expect(() => verifyAppProofSignature(makeAppProof({ type: "APP_PROOF_TYPE_ADDRESS_DERIVATION" }, keys) as never)).not.toThrow();
  });
});
