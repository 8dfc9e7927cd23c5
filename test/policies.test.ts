/**
 * Policies, consensus and the root quorum through @turnkey/sdk-server, @turnkey/http and
 * @turnkey/viem: documented example policies allow what they should and deny the rest.
 */
import { describe, expect, it } from "vitest";
import { createAccount } from "@turnkey/viem";
import { encodeFunctionData, parseAbi, parseGwei, serializeTransaction, type Hex } from "viem";
import { httpClient, newP256KeyPair, rawPost, sdkClient, startTestEmulator, storeCounts, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const ALLOWED = "0x1111111111111111111111111111111111111111";
const OTHER = "0x2222222222222222222222222222222222222222";

const emu = useTestEmulator();

async function newUser(name: string, tags: string[] = []): Promise<{ id: string; key: KeyPair }> {
  const key = newP256KeyPair();
  const r = await sdkClient(emu).createUsers({ users: [{ userName: name, apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: tags }] });
  return { id: r.userIds[0]!, key };
}

async function withPolicy<T>(policy: { policyName: string; effect: "EFFECT_ALLOW" | "EFFECT_DENY"; condition?: string; consensus?: string }, fn: () => Promise<T>): Promise<T> {
  const { policyId } = await sdkClient(emu).createPolicy({ notes: "", ...policy });
  try {
    return await fn();
  } finally {
    await sdkClient(emu).deletePolicy({ policyId });
  }
}

/** A policy denial: the SDK rejects with the service's 403 rpcStatus (code 7) as TurnkeyRequestError. */
async function expectDenied(request: Promise<unknown>): Promise<{ code: number; message: string; details: { message: string; policyEvaluations: unknown[] }[] }> {
  const error = await request.then(
    () => expect.unreachable("expected a policy denial"),
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: "TurnkeyRequestError", code: 7 });
  return error as never;
}

const eip1559 = (to: string, data: Hex = "0x") =>
  serializeTransaction({ type: "eip1559", chainId: 1, nonce: 0, to: to as Hex, value: 1n, data, gas: 50_000n, maxFeePerGas: parseGwei("10"), maxPriorityFeePerGas: parseGwei("1") }).slice(2);

describe("policy management", () => {
  it("creates, reads, updates and deletes policies; refuses bad expressions with their position", async () => {
    const c = sdkClient(emu);
    const { policyId } = await c.createPolicy({ policyName: "p1", effect: "EFFECT_ALLOW", condition: "activity.resource == 'WALLET'", notes: "n" });
    expect((await c.getPolicy({ policyId })).policy).toMatchObject({ policyName: "p1", effect: "EFFECT_ALLOW", condition: "activity.resource == 'WALLET'", consensus: "" });
    await c.updatePolicy({ policyId, policyCondition: "activity.action == 'CREATE'" });
    expect((await c.getPolicies({})).policies.find((p) => p.policyId === policyId)!.condition).toBe("activity.action == 'CREATE'");
    await expect(c.createPolicy({ policyName: "p1", effect: "EFFECT_ALLOW", notes: "" })).rejects.toThrow(/policy label must be unique/);
    const before = storeCounts(emu);
    await expect(c.createPolicy({ policyName: "bad", effect: "EFFECT_ALLOW", condition: "activity.type == (", notes: "" })).rejects.toThrow(/invalid policy condition.*position/);
    await expect(c.createPolicy({ policyName: "bad2", effect: "EFFECT_ALLOW", consensus: "approvers.any(user, ", notes: "" })).rejects.toThrow(/invalid policy consensus/);
    await expect(c.updatePolicy({ policyId, policyCondition: "&&" })).rejects.toThrow(/policyCondition/);
    expect(storeCounts(emu)).toEqual(before);
    const many = await c.createPolicies({ policies: [{ policyName: "m1", effect: "EFFECT_DENY", notes: "" }, { policyName: "m2", effect: "EFFECT_DENY", notes: "" }] });
    await c.deletePolicies({ policyIds: [...many.policyIds, policyId] });
    // The seeded auth proxy brings its own policy; every policy this test made is gone.
    expect((await c.getPolicies({})).policies.filter((p) => !p.policyName.startsWith("Auth Proxy"))).toEqual([]);
  });

  it("never crashes on random or truncated expressions", async () => {
    const pieces = ["activity", ".", "type", "==", "'x'", "(", ")", "&&", "||", "!", "[", "]", "0..2", "approvers", ".any(", "u", ",", "u.id", "in", "1000000000000000000", "Timestamp(", "'", "\"", "\\", "eth.tx.to"];
    let seed = 7;
    const rand = () => ((seed = (seed * 48271) % 2147483647) / 2147483647);
    for (let i = 0; i < 60; i++) {
      const expr = Array.from({ length: 1 + Math.floor(rand() * 10) }, () => pieces[Math.floor(rand() * pieces.length)]).join(" ");
      const r = await rawPost(emu, "/public/v1/submit/create_policy", JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_POLICY_V3", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { policyName: `fuzz-${i}`, effect: "EFFECT_ALLOW", condition: expr, notes: "" } }));
      expect(r.status, expr).toBeLessThan(500);
      if (r.status === 200) await sdkClient(emu).deletePolicy({ policyId: r.json.activity.result.createPolicyResult.policyId });
    }
  });
});

describe("documented example policies, enforced for a non-root user", () => {
  it("allows signing only to an allow-listed address (eth.tx.to) and the SDK raises on the denial", async () => {
    const alice = await newUser("allowlist-user");
    await withPolicy(
      { policyName: "allowlist", effect: "EFFECT_ALLOW", consensus: `approvers.any(user, user.id == '${alice.id}')`, condition: `eth.tx.to == '${ALLOWED}'` },
      async () => {
        const c = sdkClient(emu, alice.key);
        const ok = await c.signTransaction({ signWith: ANVIL_0, unsignedTransaction: eip1559(ALLOWED), type: "TRANSACTION_TYPE_ETHEREUM" });
        expect(ok.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
        await expectDenied(c.signTransaction({ signWith: ANVIL_0, unsignedTransaction: eip1559(OTHER), type: "TRANSACTION_TYPE_ETHEREUM" }));
        // The denied activity is recorded FAILED (newest first), with its policy evaluations.
        const [denied] = (await c.getActivities({ filterByType: ["ACTIVITY_TYPE_SIGN_TRANSACTION_V2"], filterByStatus: ["ACTIVITY_STATUS_FAILED"] })).activities;
        expect(denied!.votes[0]!.userId).toBe(alice.id);
        expect(denied!.failure).toMatchObject({ code: 7 });
        const evals = await c.getPolicyEvaluations({ activityId: denied!.id });
        expect(evals.policyEvaluations[0]!.policyEvaluations[0]!.outcome).toBe("OUTCOME_DENY_IMPLICIT");

        // @turnkey/viem wraps the request error in its activity error.
        const account = await createAccount({ client: httpClient(emu, alice.key) as never, organizationId: emu.info.organizationId, signWith: ANVIL_0 });
        const base = { type: "eip1559" as const, chainId: 1, nonce: 0, value: 1n, gas: 50_000n, maxFeePerGas: parseGwei("10"), maxPriorityFeePerGas: parseGwei("1") };
        expect(await account.signTransaction({ ...base, to: ALLOWED as Hex })).toMatch(/^0x02/);
        await expect(account.signTransaction({ ...base, to: OTHER as Hex })).rejects.toThrow(/^Failed to sign: Turnkey error 7: /);
      },
    );
  });

  it("decodes contract calls through an uploaded ABI (eth.tx.contract_call_args)", async () => {
    const bob = await newUser("abi-user");
    const token = "0x3333333333333333333333333333333333333333";
    const abi = parseAbi(["function transfer(address to, uint256 wad) returns (bool)"]);
    await sdkClient(emu).createSmartContractInterface({ smartContractAddress: token, smartContractInterface: JSON.stringify(abi), type: "SMART_CONTRACT_INTERFACE_TYPE_ETHEREUM", label: "token" });
    await withPolicy({ policyName: "small-transfers", effect: "EFFECT_ALLOW", condition: "eth.tx.function_name == 'transfer' && eth.tx.contract_call_args['wad'] < 1000000000000000000" }, async () => {
      const c = sdkClient(emu, bob.key);
      const small = encodeFunctionData({ abi, functionName: "transfer", args: [OTHER as Hex, 10n ** 17n] });
      const big = encodeFunctionData({ abi, functionName: "transfer", args: [OTHER as Hex, 2n * 10n ** 18n] });
      expect((await c.signTransaction({ signWith: ANVIL_0, unsignedTransaction: eip1559(token, small), type: "TRANSACTION_TYPE_ETHEREUM" })).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      await expectDenied(c.signTransaction({ signWith: ANVIL_0, unsignedTransaction: eip1559(token, big), type: "TRANSACTION_TYPE_ETHEREUM" }));
    });
  });

  const cases: { name: string; policy: { effect: "EFFECT_ALLOW" | "EFFECT_DENY"; condition?: string; consensus?: string }; allowed: (c: ReturnType<typeof sdkClient>) => Promise<{ activity: { status: string } }>; denied: (c: ReturnType<typeof sdkClient>) => Promise<unknown> }[] = [
    {
      name: "activity.resource == 'WALLET' && activity.action == 'CREATE'",
      policy: { effect: "EFFECT_ALLOW", condition: "activity.resource == 'WALLET' && activity.action == 'CREATE'" },
      allowed: (c) => c.createWallet({ walletName: `w-${Math.random()}`, accounts: [] }),
      denied: (c) => c.createUserTag({ userTagName: `t-${Math.random()}`, userIds: [] }),
    },
    {
      name: "activity.kind == 'SIGN_TRANSACTION'",
      policy: { effect: "EFFECT_ALLOW", condition: "activity.kind == 'SIGN_TRANSACTION'" },
      allowed: (c) => c.signTransaction({ signWith: ANVIL_0, unsignedTransaction: eip1559(OTHER), type: "TRANSACTION_TYPE_ETHEREUM" }),
      denied: (c) => c.signRawPayload({ signWith: ANVIL_0, payload: "0x" + "11".repeat(32), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" }),
    },
    {
      name: "eth.tx.chain_id == 11155111",
      policy: { effect: "EFFECT_ALLOW", condition: "eth.tx.chain_id == 11155111" },
      allowed: (c) => c.signTransaction({ signWith: ANVIL_0, unsignedTransaction: serializeTransaction({ type: "eip1559", chainId: 11155111, to: OTHER as Hex, gas: 21000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n }).slice(2), type: "TRANSACTION_TYPE_ETHEREUM" }),
      denied: (c) => c.signTransaction({ signWith: ANVIL_0, unsignedTransaction: eip1559(OTHER), type: "TRANSACTION_TYPE_ETHEREUM" }),
    },
    {
      name: "signing only with one wallet (activity.action == 'SIGN' && wallet.id == ...)",
      policy: { effect: "EFFECT_ALLOW", condition: "activity.action == 'SIGN' && wallet.id == '6c5a0d5e-4a53-4c7e-9d43-9c2f6a0e7b11'" },
      allowed: (c) => c.signRawPayload({ signWith: ANVIL_0, payload: "0x" + "22".repeat(32), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" }),
      denied: (c) => c.createWallet({ walletName: `w-${Math.random()}`, accounts: [] }),
    },
    {
      name: "EIP-712 domain name",
      policy: { effect: "EFFECT_ALLOW", condition: "eth.eip_712.domain.name == 'Allowed' && activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'" },
      allowed: (c) => c.signRawPayload({ signWith: ANVIL_0, payload: typedData("Allowed"), encoding: "PAYLOAD_ENCODING_EIP712", hashFunction: "HASH_FUNCTION_NO_OP" }),
      denied: (c) => c.signRawPayload({ signWith: ANVIL_0, payload: typedData("Other"), encoding: "PAYLOAD_ENCODING_EIP712", hashFunction: "HASH_FUNCTION_NO_OP" }),
    },
  ];

  for (const t of cases) {
    it(`allows and denies by: ${t.name}`, async () => {
      const u = await newUser(`case-${t.name.slice(0, 20)}`);
      await withPolicy({ policyName: `case ${t.name}`, ...t.policy }, async () => {
        const c = sdkClient(emu, u.key);
        expect((await t.allowed(c)).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
        await expectDenied(t.denied(c));
      });
    });
  }

  it("bitcoin.tx outputs and fee come from the PSBT (bitcoinjs-built)", async () => {
    const bitcoin = await import("bitcoinjs-lib");
    const network = bitcoin.networks.testnet;
    const { accounts } = await sdkClient(emu).getWalletAccounts({ walletId: emu.info.walletId!, paginationOptions: { limit: "100" } });
    const wpkh = accounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH")!;
    const script = bitcoin.payments.p2wpkh({ pubkey: Buffer.from(wpkh.publicKey!, "hex"), network }).output!;
    const psbtPaying = (value: bigint) => {
      const psbt = new bitcoin.Psbt({ network });
      psbt.addInput({ hash: "33".repeat(32), index: 0, witnessUtxo: { script, value: 500_000n } });
      psbt.addOutput({ address: "tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx", value });
      return psbt.toHex();
    };
    const u = await newUser("btc-user");
    await withPolicy({ policyName: "small-btc", effect: "EFFECT_ALLOW", condition: "bitcoin.tx.outputs.all(o, o.value < 200000) && bitcoin.tx.fee <= 400000" }, async () => {
      const c = sdkClient(emu, u.key);
      const sign = (hex: string) => c.signTransaction({ signWith: wpkh.address, unsignedTransaction: hex, type: "TRANSACTION_TYPE_BITCOIN" });
      expect((await sign(psbtPaying(150_000n))).activity.status).toBe("ACTIVITY_STATUS_COMPLETED"); // fee 350,000
      await expectDenied(sign(psbtPaying(250_000n))); // output too large
      await expectDenied(sign(psbtPaying(50_000n))); // fee 450,000 too high
    });
  });

  it("an explicit DENY wins over an ALLOW (DENY delete for a tag)", async () => {
    const { userTagId } = await sdkClient(emu).createUserTag({ userTagName: "no-delete", userIds: [] });
    const u = await newUser("tagged", [userTagId]);
    const allow = await sdkClient(emu).createPolicy({ policyName: "allow-all-users", effect: "EFFECT_ALLOW", condition: "activity.resource == 'USER'", notes: "" });
    await withPolicy({ policyName: "deny-delete", effect: "EFFECT_DENY", consensus: `approvers.any(user, user.tags.contains('${userTagId}'))`, condition: "activity.action == 'DELETE'" }, async () => {
      const c = sdkClient(emu, u.key);
      const victim = await c.createUsers({ users: [{ userName: "victim", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
      expect(victim.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const denied = await expectDenied(c.deleteUsers({ userIds: victim.userIds }));
      expect(denied.details[0]!.message).toMatch(/^The following policies denied this action: /);
    });
    await sdkClient(emu).deletePolicy({ policyId: allow.policyId });
  });

  it("two approvers with a tag: consensus needed, then approval completes it", async () => {
    const { userTagId } = await sdkClient(emu).createUserTag({ userTagName: "signers", userIds: [] });
    const a = await newUser("signer-a", [userTagId]);
    const b = await newUser("signer-b", [userTagId]);
    await withPolicy({ policyName: "two-signers", effect: "EFFECT_ALLOW", consensus: `approvers.filter(user, user.tags.contains('${userTagId}')).count() >= 2`, condition: "activity.resource == 'WALLET'" }, async () => {
      const proposed = await sdkClient(emu, a.key).createWallet({ walletName: "co-signed", accounts: [] });
      expect(proposed.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      expect(proposed.activity.votes).toHaveLength(1);
      expect(proposed.activity.canApprove).toBe(true);
      const approved = await sdkClient(emu, b.key).approveActivity({ fingerprint: proposed.activity.fingerprint });
      expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(approved.activity.votes).toHaveLength(2);
      expect((approved.activity.result as { createWalletResult?: { walletId: string } }).createWalletResult?.walletId).toMatch(/-/);
      // Voting again on a finished activity is refused.
      await expect(sdkClient(emu).approveActivity({ fingerprint: proposed.activity.fingerprint })).rejects.toThrow(/not awaiting consensus/);
    });
  });
});

function typedData(name: string): string {
  return JSON.stringify({
    types: { EIP712Domain: [{ name: "name", type: "string" }], Mail: [{ name: "contents", type: "string" }] },
    primaryType: "Mail",
    domain: { name },
    message: { contents: "hi" },
  });
}

describe("root quorum", () => {
  it("2-of-2: a proposal waits for the second root user; approval completes, rejection ends REJECTED", async () => {
    const e = await startTestEmulator();
    try {
      const root = sdkClient(e);
      const second = newP256KeyPair();
      const { userIds } = await root.createUsers({ users: [{ userName: "root-2", apiKeys: [{ apiKeyName: "k", publicKey: second.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
      await root.updateRootQuorum({ threshold: 2, userIds: [e.info.rootUserId, userIds[0]!] });
      expect((await root.getOrganizationConfigs({})).configs.quorum).toEqual({ threshold: 2, userIds: [e.info.rootUserId, userIds[0]!] });

      const proposal = await root.createWallet({ walletName: "needs-two", accounts: [] });
      expect(proposal.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      expect((await root.getWallets({})).wallets.map((w) => w.walletName)).not.toContain("needs-two");
      const approved = await sdkClient(e, second).approveActivity({ fingerprint: proposal.activity.fingerprint });
      expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect((approved.activity.result as { createWalletResult: { walletId: string } }).createWalletResult.walletId).toBeTruthy();
      expect((await root.getWallets({})).wallets.map((w) => w.walletName)).toContain("needs-two");

      const other = await sdkClient(e, second).createWallet({ walletName: "rejected", accounts: [] });
      expect(other.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      const rejected = await root.rejectActivity({ fingerprint: other.activity.fingerprint });
      expect(rejected.activity.status).toBe("ACTIVITY_STATUS_REJECTED");
      expect((await root.getWallets({})).wallets.map((w) => w.walletName)).not.toContain("rejected");

      // An identical submission by the other root user counts as the second approval.
      const body = JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_USER_TAG", timestampMs: String(Date.now()), organizationId: e.info.organizationId, parameters: { userTagName: "by-both", userIds: [] } });
      const first = await rawPost(e, "/public/v1/submit/create_user_tag", body);
      expect(first.json.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      const again = await rawPost(e, "/public/v1/submit/create_user_tag", body, { key: second });
      expect(again.json.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(again.json.activity.id).toBe(first.json.activity.id);

      await expect(root.approveActivity({ fingerprint: "sha256:" + "0".repeat(64) })).rejects.toThrow(/No activity found with fingerprint/);
    } finally {
      await e.stop();
    }
  });

  it("root-quorum-only activities fail for a non-root user even with an allowing policy", async () => {
    const u = await newUser("not-root");
    await withPolicy({ policyName: "allow-everything", effect: "EFFECT_ALLOW", condition: "true" }, async () => {
      await expectDenied(sdkClient(emu, u.key).setOrganizationFeature({ name: "FEATURE_NAME_WEBHOOK", value: "https://example.com/hook" }));
      expect((await sdkClient(emu, u.key).createWallet({ walletName: "policy-allowed", accounts: [] })).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    });
    const before = (await sdkClient(emu).getOrganizationConfigs({})).configs.features ?? [];
    const r = await sdkClient(emu).setOrganizationFeature({ name: "FEATURE_NAME_WEBHOOK", value: "https://example.com/hook" });
    expect(r.features).toEqual([...before, { name: "FEATURE_NAME_WEBHOOK", value: "https://example.com/hook" }]);
    expect((await sdkClient(emu).removeOrganizationFeature({ name: "FEATURE_NAME_WEBHOOK" })).features).toEqual(before);
    const renamed = await sdkClient(emu).updateOrganizationName({ organizationName: "Renamed Org" });
    expect(renamed).toMatchObject({ organizationName: "Renamed Org" });
  });
});
