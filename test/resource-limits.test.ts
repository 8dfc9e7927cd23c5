/**
 * The service's per-organization limits answer 429 ResourceExhausted (gRPC code 8) and write
 * nothing: users (100 per organization) and tags (100 per organization, 10 per sub-organization).
 */
import { describe, expect, it } from "vitest";
import { newP256KeyPair, rawPost, sdkClient, storeCounts } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

describe("resource limits", () => {
  const emu = useTestEmulator();

  it("a sub-organization holds 10 tags; the 11th is 429 and writes nothing", async () => {
    const key = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "tag limits",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const c = sdkClient(emu, key, sub.subOrganizationId);
    for (let i = 0; i < 5; i++) await c.createUserTag({ userTagName: `user-${i}`, userIds: [] });
    for (let i = 0; i < 5; i++) await c.createPrivateKeyTag({ privateKeyTagName: `key-${i}`, privateKeyIds: [] });
    const before = storeCounts(emu).tags;
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_USER_TAG",
      timestampMs: String(Date.now()),
      organizationId: sub.subOrganizationId,
      parameters: { userTagName: "one-too-many", userIds: [] },
    });
    const r = await rawPost(emu, "/public/v1/submit/create_user_tag", body, { key });
    expect(r.status).toBe(429);
    expect(r.json.code).toBe(8);
    expect(r.json.message).toMatch(/maximum of 10 tags/);
    expect(storeCounts(emu).tags).toBe(before);
    // The SDK surfaces the same refusal.
    await expect(c.createUserTag({ userTagName: "still-too-many", userIds: [] })).rejects.toThrow(/maximum of 10 tags/);
  });

  it("an organization holds 100 users; more is 429 through create_users and create_api_only_users", async () => {
    const c = sdkClient(emu);
    const have = (await c.getUsers({})).users.length;
    const fill = Array.from({ length: 100 - have }, (_, i) => ({ userName: `filler ${i}`, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }));
    await c.createUsers({ users: fill });
    expect((await c.getUsers({})).users).toHaveLength(100);
    const before = storeCounts(emu).users;
    const org = emu.info.organizationId;
    const users = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_USERS_V4",
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { users: [{ userName: "101st", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] },
    });
    const a = await rawPost(emu, "/public/v1/submit/create_users", users);
    expect([a.status, a.json.code], a.json.message).toEqual([429, 8]);
    expect(a.json.message).toMatch(/maximum of 100 users/);
    const apiOnly = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_API_ONLY_USERS",
      timestampMs: String(Date.now()),
      organizationId: org,
      parameters: { apiOnlyUsers: [{ userName: "101st", userTags: [], apiKeys: [] }] },
    });
    const b = await rawPost(emu, "/public/v1/submit/create_api_only_users", apiOnly);
    expect([b.status, b.json.code]).toEqual([429, 8]);
    expect(storeCounts(emu).users).toBe(before);
  });
});
