/**
 * upsert_swap_config through @turnkey/sdk-server: fields left out keep their value, the result
 * is the configuration as it stands, each organization has its own, bad input names the field
 * and writes nothing, and policies govern it like any activity.
 */
import { describe, expect, it } from "vitest";
import { newP256KeyPair, rawPost, sdkClient, storeCounts } from "./support.js";
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

  it("each organization has its own", async () => {
    const key = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "swapper",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    expect(await upsert(sdkClient(emu, key, sub.subOrganizationId), {})).toEqual({});
  });

  it("refuses bad input naming the field, writing nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ feeBps: "10001" }, "parameters.feeBps"],
      [{ feeBps: "-1" }, "parameters.feeBps"],
      [{ feeBps: "2.5" }, "parameters.feeBps"],
      [{ stableFeeBps: "lots" }, "parameters.stableFeeBps"],
      [{ feeReceiverWalletAddress: "" }, "parameters.feeReceiverWalletAddress"],
      [{ feeReceiverWalletAddress: "0x with spaces" }, "parameters.feeReceiverWalletAddress"],
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
