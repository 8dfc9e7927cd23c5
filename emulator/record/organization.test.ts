import { describe, expect, it } from "vitest";
import { parseFixture } from "../fixtures.js";
import { stableId } from "../fixtures/seed.js";
import type { Exchange } from "./cassette.js";
import { initialOrganization } from "./organization.js";

const ORG = "0d59bf5a-3228-47d7-8128-1e1c1da98a34";
const ROOT = "ae9477b3-2f4c-4ecd-88ee-4b1f358feeba";
const ALICE = "5b1a0c1e-1111-4111-8111-111111111111";
const WALLET = "6c5a0d5e-4a53-4c7e-9d43-9c2f6a0e7b11";
const NEW_WALLET = "7d6b1e6f-5b64-4d8f-8e54-0d3f7b1f8c22";
const POLICY = "8e7c2f70-6c75-4e90-9f65-1e4a8c2a9d33";
const LATE_POLICY = "9f8d3081-7d86-4fa1-8a76-2f5b9d3bae44";
const CONFIG = "5f3c2b9e-8d1a-4e6f-9b7c-2a4d6e8f0a13";
const ROOT_KEY = "03a072d6592918a8c56a057682964c025d5779ea8e0af8c38d8e1eb0da71d7f5f1";
const UNNAMED_KEY = "02" + "11".repeat(32);

let seq = 0;
function x(operation: string, request: Record<string, unknown>, body: unknown, opts: { stamp?: string; status?: number; headers?: Record<string, string> } = {}): Exchange {
  const [kind, name] = operation.split(" ") as [string, string];
  return {
    seq: ++seq,
    surface: kind === "proxy" ? "proxy" : "coordinator",
    path: kind === "proxy" ? `/v1/${name}` : `/public/v1/${kind}/${name}`,
    operation,
    recordedAt: 1_000 + seq,
    durationMs: 1,
    request: { headers: opts.headers ?? {}, ...(opts.stamp ? { stamp: { header: "X-Stamp", publicKey: opts.stamp, scheme: "SIGNATURE_SCHEME_TK_API_P256" } } : {}), body: request },
    response: { status: opts.status ?? 200, headers: {}, body },
  };
}
const apiKey = (apiKeyId: string, publicKey: string) => ({ apiKeyId, apiKeyName: "k", credential: { publicKey, type: "CREDENTIAL_TYPE_API_KEY_P256" } });
const policy = (policyId: string, policyName: string, effect = "EFFECT_ALLOW") => ({ policyId, policyName, effect, condition: "activity.resource == 'WALLET'", consensus: "", notes: "" });
const at = { organizationId: ORG };

const session: Exchange[] = [
  x("query whoami", at, { organizationId: ORG, organizationName: "Acme", userId: ROOT, username: "root" }, { stamp: ROOT_KEY }),
  x("query get_organization_configs", at, { configs: { quorum: { threshold: 1, userIds: [ROOT] } } }, { stamp: ROOT_KEY }),
  x("query list_users", at, { users: [
    { userId: ROOT, userName: "root", userEmail: "root@example.com", apiKeys: [apiKey("aaaaaaaa-0000-4000-8000-000000000001", ROOT_KEY)], authenticators: [], oauthProviders: [] },
    { userId: ALICE, userName: "alice", apiKeys: [], authenticators: [], oauthProviders: [] },
    { userId: stableId(CONFIG, 1), userName: "Auth Proxy", apiKeys: [], authenticators: [], oauthProviders: [] },
  ] }, { stamp: ROOT_KEY }),
  x("query list_policies", at, { policies: [policy(POLICY, "first"), policy(stableId(CONFIG, 3), "proxy")] }, { stamp: ROOT_KEY }),
  x("query list_wallets", at, { wallets: [{ walletId: WALLET, walletName: "treasury" }] }, { stamp: ROOT_KEY }),
  x("query list_wallet_accounts", { ...at, walletId: WALLET }, { accounts: [{ walletId: WALLET, walletAccountId: "acc-1", curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM", address: "0x0000000000000000000000000000000000000abc" }] }, { stamp: ROOT_KEY }),
  x("submit create_wallet", { ...at, type: "ACTIVITY_TYPE_CREATE_WALLET", parameters: { walletName: "new" } }, { activity: { id: "act-1", status: "ACTIVITY_STATUS_COMPLETED", result: { createWalletResult: { walletId: NEW_WALLET, addresses: [] } } } }, { stamp: ROOT_KEY }),
  // A later listing shows the new wallet and a policy someone else added: neither is the starting state.
  x("query list_wallets", at, { wallets: [{ walletId: WALLET, walletName: "treasury" }, { walletId: NEW_WALLET, walletName: "new" }] }, { stamp: ROOT_KEY }),
  x("query list_policies", at, { policies: [policy(POLICY, "first"), policy(LATE_POLICY, "late", "EFFECT_DENY")] }, { stamp: ROOT_KEY }),
  x("query whoami", at, { organizationId: ORG, organizationName: "Acme", userId: ALICE, username: "alice" }, { stamp: UNNAMED_KEY }),
  x("proxy wallet_kit_config", {}, { organizationId: ORG, enabledProviders: ["email"], sessionExpirationSeconds: "600", otpLength: "8", otpAlphanumeric: true }, { headers: { "x-auth-proxy-config-id": CONFIG } }),
];

describe("the organization a replay starts from", () => {
  const org = initialOrganization(session);
  const o = org.fixture.organization;

  it("is the recorded organization as its first answers describe it, a fixture the emulator accepts", () => {
    expect(() => parseFixture(org.fixture)).not.toThrow();
    expect([org.organizationId, o.organizationName, o.rootQuorumThreshold]).toEqual([ORG, "Acme", 1]);
    expect(o.users.map((u) => [u.userId, u.userName, u.root, u.userEmail])).toEqual([
      [ROOT, "root", true, "root@example.com"],
      [ALICE, "alice", false, undefined],
    ]);
    expect(o.wallets.map((w) => [w.walletId, w.walletName, w.accounts.map((a) => [a.path, a.addressFormat])])).toEqual([[WALLET, "treasury", [["m/44'/60'/0'/0/0", "ADDRESS_FORMAT_ETHEREUM"]]]]);
    expect(o.policies.map((p) => p.policyId)).toEqual([POLICY]);
    expect(o.authProxy).toMatchObject({ configId: CONFIG, enabledProviders: ["email"], sessionExpirationSeconds: 600, otpLength: 8, otpAlphanumeric: true });
  });

  it("gives each recorded API key a fresh pair the replay holds, a key no answer names to the user whoami named", () => {
    const root = o.users.find((u) => u.userId === ROOT)!;
    expect(root.apiKeys.map((k) => k.apiKeyId)).toEqual(["aaaaaaaa-0000-4000-8000-000000000001"]);
    expect(root.apiKeys[0]!.publicKey).not.toBe(ROOT_KEY);
    expect(org.keys.get(ROOT_KEY)!.publicKey).toBe(root.apiKeys[0]!.publicKey);
    const alice = o.users.find((u) => u.userId === ALICE)!;
    expect(alice.apiKeys.map((k) => k.publicKey)).toEqual([org.keys.get(UNNAMED_KEY)!.publicKey]);
  });

  it("keeps the recorded accounts to map to the replay's, and no secret of the recording (mnemonics are fresh)", () => {
    expect(org.accounts).toEqual([{ walletId: WALLET, path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM", address: "0x0000000000000000000000000000000000000abc", walletAccountId: "acc-1" }]);
    expect(o.wallets[0]!.mnemonic.split(" ")).toHaveLength(12);
  });

  it("takes a user's contacts and keys from an activity's votes when no listing gives them", () => {
    const vote = { userId: ROOT, user: { userId: ROOT, userName: "root", userEmail: "root@example.com", apiKeys: [apiKey("aaaaaaaa-0000-4000-8000-000000000001", ROOT_KEY)], authenticators: [], oauthProviders: [] } };
    const made = initialOrganization([
      x("query whoami", at, { organizationId: ORG, organizationName: "Acme", userId: ROOT, username: "root" }, { stamp: ROOT_KEY }),
      x("submit create_wallet", { ...at, type: "ACTIVITY_TYPE_CREATE_WALLET" }, { activity: { id: "act-9", status: "ACTIVITY_STATUS_COMPLETED", votes: [vote], result: {} } }, { stamp: ROOT_KEY }),
    ]);
    expect(made.fixture.organization.users.map((u) => [u.userId, u.userEmail, u.apiKeys.map((k) => k.apiKeyId)])).toEqual([[ROOT, "root@example.com", ["aaaaaaaa-0000-4000-8000-000000000001"]]]);
  });

  it("says what it had to assume when no answer gives the users or the quorum", () => {
    const bare = initialOrganization([x("submit create_wallet", { ...at, type: "ACTIVITY_TYPE_CREATE_WALLET" }, {}, { stamp: ROOT_KEY })]);
    expect(() => parseFixture(bare.fixture)).not.toThrow();
    expect(bare.notes.join("\n")).toMatch(/no answer describes the organization's users[\s\S]*no answer gives the root quorum/);
    expect(bare.fixture.organization.users[0]!.root).toBe(true);
    expect(() => initialOrganization([x("proxy otp_init", {}, {})])).toThrow(/names no organization/);
  });
});
