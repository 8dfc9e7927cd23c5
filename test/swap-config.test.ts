/**
 * upsert_swap_config through @turnkey/sdk-server: fields left out keep their value, the result
 * is the configuration as it stands, a sub-organization cannot set one (the parent's applies to
 * it), a positive fee without a receiver gets a new wallet, bad input names the field and writes
 * nothing, and policies govern it like any activity. The fee's effect on swaps: test/swaps.test.ts.
 */
import { describe, expect, it } from "vitest";
import { newP256KeyPair, rawPost, refusal, sdkClient, storeCounts, violatedField } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();

/** The result members of the activity (the SDK returns them beside `activity`). */
async function upsert(c: ReturnType<typeof sdkClient>, p: Parameters<ReturnType<typeof sdkClient>["upsertSwapConfig"]>[0]) {
  const { activity, ...config } = await c.upsertSwapConfig(p);
  expect(activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  return config;
}

describe("upsert_swap_config", () => {
  it("upserts field by field and reads back with an empty intent", async () => {
    const c = sdkClient(emu);
    expect(await upsert(c, {})).toEqual({});
    const first = await upsert(c, { feeReceiverWalletAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", feeBps: "25" });
    expect(first).toEqual({ feeReceiverWalletAddress: "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", feeBps: "25" });
    expect(await upsert(c, { stableFeeBps: "5" })).toEqual({ ...first, stableFeeBps: "5" });
    expect(await upsert(c, { feeBps: "0" })).toEqual({ ...first, feeBps: "0", stableFeeBps: "5" });
    expect(await upsert(c, {})).toEqual({ ...first, feeBps: "0", stableFeeBps: "5" });
  });

  it("a sub-organization cannot set one: the parent's applies to it", async () => {
    const key = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "swapper",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const refused = await refusal(sdkClient(emu, key, sub.subOrganizationId).upsertSwapConfig({}));
    expect(refused.code).toBe(9);
    expect(violatedField(refused)).toBe("organizationId");
  });

  it("refuses bad input naming the field, writing nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ feeBps: "10001" }, "parameters.feeBps"],
      [{ feeBps: "501" }, "parameters.feeBps"],
      [{ stableFeeBps: "501" }, "parameters.stableFeeBps"],
      [{ feeBps: "-1" }, "parameters.feeBps"],
      [{ feeBps: "2.5" }, "parameters.feeBps"],
      [{ stableFeeBps: "lots" }, "parameters.stableFeeBps"],
      [{ feeReceiverWalletAddress: "" }, "parameters.feeReceiverWalletAddress"],
      [{ feeReceiverWalletAddress: "0x with spaces" }, "parameters.feeReceiverWalletAddress"],
      // An address the organization does not hold.
      [{ feeReceiverWalletAddress: "0x000000000000000000000000000000000000dEaD" }, "parameters.feeReceiverWalletAddress"],
    ];
    for (const [parameters, field] of cases) {
      const before = storeCounts(emu);
      const body = JSON.stringify({ type: "ACTIVITY_TYPE_UPSERT_SWAP_CONFIG", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters });
      const r = await rawPost(emu, "/public/v1/submit/upsert_swap_config", body);
      expect(r.status, JSON.stringify(parameters)).toBe(400);
      expect(JSON.stringify(r.json.details)).toContain(field);
      expect(storeCounts(emu)).toEqual(before);
    }
  });

  it("a non-root user needs a policy that allows it", async () => {
    const c = sdkClient(emu);
    const key = newP256KeyPair();
    const { userIds } = await c.createUsers({ users: [{ userName: "ops", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    const ops = sdkClient(emu, key);
    await expect(ops.upsertSwapConfig({ feeBps: "30" })).rejects.toThrow(/sufficient permissions/);
    await c.createPolicy({ policyName: "ops may configure swaps", effect: "EFFECT_ALLOW", condition: "activity.type == 'ACTIVITY_TYPE_UPSERT_SWAP_CONFIG'", consensus: `approvers.any(user, user.id == '${userIds[0]}')`, notes: "" });
    expect((await upsert(ops, { feeBps: "30" })).feeBps).toBe("30");
  });
});

describe("upsert_swap_config without a receiver", () => {
  const fresh = useTestEmulator();
  it("a positive fee gets a new wallet of the organization with one Ethereum account to receive it; a fee of 0 needs none", async () => {
    const c = sdkClient(fresh);
    expect(await upsert(c, { feeBps: "0" })).toEqual({ feeBps: "0" });
    const set = await upsert(c, { feeBps: "40" });
    expect(set.feeBps).toBe("40");
    const { wallets } = await c.getWallets({});
    const made = wallets.find((w) => w.walletName === "Swap fee receiver");
    expect(made).toBeDefined();
    const { accounts } = await c.getWalletAccounts({ walletId: made!.walletId });
    expect(accounts.map((a) => [a.address, a.addressFormat])).toEqual([[set.feeReceiverWalletAddress, "ADDRESS_FORMAT_ETHEREUM"]]);
    // The receiver stays until replaced.
    expect((await upsert(c, { feeBps: "45" })).feeReceiverWalletAddress).toBe(set.feeReceiverWalletAddress);
  });
});
