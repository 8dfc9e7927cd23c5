/**
 * The UI tests' seed: the default fixture plus a second top-level organization, "Vault",
 * with a 2-of-2 root quorum (Alice and Bob, whose dev keys are published in the fixture, so
 * the emulator can vote as them), a non-root operator whose key is NOT published, and two
 * policies: operators may create wallets; nobody deletes users.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { newP256KeyPair, type KeyPair } from "../support.js";
import type { Fixture } from "../../emulator/index.js";

export const VAULT = {
  organizationId: "6f1c9a52-0d5e-4c3b-9d71-2a8e4b6f0c11",
  alice: "a1c3e5f7-1111-4a2b-8c3d-000000000001",
  bob: "b0b0b0b0-2222-4a2b-8c3d-000000000002",
  operator: "0fe7a70e-3333-4a2b-8c3d-000000000003",
  allowPolicy: "9a7b6c5d-4444-4a2b-8c3d-000000000004",
  denyPolicy: "d3d3d3d3-5555-4a2b-8c3d-000000000005",
};

export type VaultKeys = { alice: KeyPair; bob: KeyPair; operator: KeyPair };

export function uiFixture(): { fixture: Fixture; keys: VaultKeys } {
  const base = JSON.parse(readFileSync(join(import.meta.dirname, "../../fixtures/default.json"), "utf8")) as Fixture;
  const keys = { alice: newP256KeyPair(), bob: newP256KeyPair(), operator: newP256KeyPair() };
  const apiKey = (name: string, k: KeyPair, published: boolean) => ({
    apiKeyId: crypto.randomUUID(),
    apiKeyName: name,
    curveType: "API_KEY_CURVE_P256" as const,
    publicKey: k.publicKey,
    ...(published ? { privateKey: k.privateKey } : {}),
  });
  const vault = {
    organizationId: VAULT.organizationId,
    organizationName: "Vault",
    rootQuorumThreshold: 2,
    users: [
      { userId: VAULT.alice, userName: "Alice", userEmail: "alice@vault.example.com", root: true, apiKeys: [apiKey("alice dev key", keys.alice, true)] },
      { userId: VAULT.bob, userName: "Bob", userEmail: "bob@vault.example.com", root: true, apiKeys: [apiKey("bob dev key", keys.bob, true)] },
      { userId: VAULT.operator, userName: "Operator", root: false, apiKeys: [apiKey("operator key", keys.operator, false)] },
    ],
    policies: [
      {
        policyId: VAULT.allowPolicy,
        policyName: "Operators create wallets",
        effect: "EFFECT_ALLOW" as const,
        consensus: `approvers.any(user, user.id == '${VAULT.operator}')`,
        condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'",
      },
      { policyId: VAULT.denyPolicy, policyName: "Nobody deletes users", effect: "EFFECT_DENY" as const, condition: "activity.type == 'ACTIVITY_TYPE_DELETE_USERS'" },
    ],
  };
  return { fixture: { ...base, organizations: [vault] } as unknown as Fixture, keys };
}
