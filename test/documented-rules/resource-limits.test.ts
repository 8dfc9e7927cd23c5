/**
 * The resource-limits page (tkhq/docs reference/resource-limits.mdx:13-31) through the SDK: the
 * limits test/resource-limits.test.ts and test/invitations.test.ts do not cover. Each exceeded
 * allowance is 429 (code 8) and writes nothing; the 11th expiring API key replaces one
 * (docs/limits.md, "The 11th expiring API key").
 */
import { describe, expect, it } from "vitest";
import { advanceClock, createApiKeyUser, newP256KeyPair, refusal, sdkClient, storeCounts } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

const apiKey = (name: string, expirationSeconds?: string) => ({ apiKeyName: name, publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" as const, ...(expirationSeconds ? { expirationSeconds } : {}) });

describe("documented resource limits", () => {
  const e = useTestEmulator();

  it("HD wallets: 100 per organization, the 101st is 429", async () => {
    const c = sdkClient(e);
    const have = (await c.getWallets({})).wallets.length;
    for (let i = have; i < 100; i++) await c.createWallet({ walletName: `w-${i}`, accounts: [] });
    const before = storeCounts(e);
    const err = await refusal(c.createWallet({ walletName: "one-too-many", accounts: [] }));
    expect(err.code).toBe(8);
    expect(err.message).toMatch(/maximum of 100 wallets/);
    expect(storeCounts(e)).toEqual(before);
  });

  it("policies: 100 per organization, the 101st is 429", async () => {
    const c = sdkClient(e);
    const have = (await c.getPolicies({})).policies.length;
    const policy = (i: number) => ({ policyName: `p-${i}`, effect: "EFFECT_ALLOW" as const, condition: "activity.action == 'CREATE'", notes: "" });
    await c.createPolicies({ policies: Array.from({ length: 100 - have }, (_, i) => policy(i)) });
    const err = await refusal(c.createPolicy(policy(100)));
    expect(err.code).toBe(8);
    expect(err.message).toMatch(/maximum of 100 policies/);
  });

  it("long-lived API keys: 10 per user, the 11th is 429 with the documented message", async () => {
    const user = await createApiKeyUser(e, "long-lived");
    const c = sdkClient(e);
    await c.createApiKeys({ userId: user.id, apiKeys: Array.from({ length: 9 }, (_, i) => apiKey(`k-${i}`)) });
    const err = await refusal(c.createApiKeys({ userId: user.id, apiKeys: [apiKey("k-10")] }));
    expect(err.code).toBe(8);
    expect(err.message).toMatch(/^Turnkey error 8: user has exceeded maximum long-lived api keys/);
    expect((await c.getApiKeys({ userId: user.id })).apiKeys).toHaveLength(10);
  });

  it("expiring API keys: the 11th replaces an expired one first, else the oldest unexpired", async () => {
    const user = await createApiKeyUser(e, "expiring");
    const c = sdkClient(e);
    const names = async () => (await c.getApiKeys({ userId: user.id })).apiKeys.filter((k) => k.expirationSeconds).map((k) => k.apiKeyName).sort();
    await c.createApiKeys({ userId: user.id, apiKeys: Array.from({ length: 9 }, (_, i) => apiKey(`e-${i}`, "86400")) });
    await advanceClock(e, 1000);
    await c.createApiKeys({ userId: user.id, apiKeys: [apiKey("short", "60")] });
    await advanceClock(e, 120_000); // "short", the newest, has expired: it goes before the oldest
    await c.createApiKeys({ userId: user.id, apiKeys: [apiKey("e-9", "86400")] });
    expect(await names()).toEqual(Array.from({ length: 10 }, (_, i) => `e-${i}`).sort());
    await advanceClock(e, 1000);
    await c.createApiKeys({ userId: user.id, apiKeys: [apiKey("e-10", "86400")] });
    const now = await names();
    expect(now).toHaveLength(10);
    expect(now).toContain("e-9");
    expect(now).toContain("e-10");
  });
});
