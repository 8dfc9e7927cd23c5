import { describe, expect, it } from "vitest";
import { devKey, httpClient, newP256KeyPair, rawPost, sdkClient, storeCounts, submitBody } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const USER_PARAMS = (name: string, publicKey?: string) => ({
  userName: name,
  apiKeys: publicKey ? [{ apiKeyName: `${name} key`, publicKey, curveType: "API_KEY_CURVE_P256" as const }] : [],
  authenticators: [],
  oauthProviders: [],
  userTags: [],
});

const emu = useTestEmulator();

describe("through @turnkey/sdk-server", () => {
  it("whoami answers for the seeded root user", async () => {
    const who = await sdkClient(emu).getWhoami({});
    expect(who).toEqual({
      organizationId: emu.info.organizationId,
      organizationName: emu.info.organizationName,
      userId: emu.info.rootUserId,
      username: "Dev Root User",
    });
  });

  it("creates a user with an API key, then acts as that user", async () => {
    const key = newP256KeyPair();
    const created = await sdkClient(emu).createUsers({ users: [USER_PARAMS("alice", key.publicKey)] });
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(created.userIds).toHaveLength(1);
    const aliceId = created.userIds[0]!;

    const asAlice = sdkClient(emu, key);
    expect(await asAlice.getWhoami({})).toMatchObject({ userId: aliceId, username: "alice" });
    const { user } = await asAlice.getUser({ userId: aliceId });
    expect(user.apiKeys.map((k) => k.credential.publicKey)).toEqual([key.publicKey]);
    expect(user.apiKeys[0]!.credential.type).toBe("CREDENTIAL_TYPE_API_KEY_P256");

    // Alice is no root user and no policy allows her to create users: implicit deny.
    await expect(asAlice.createUsers({ users: [USER_PARAMS("mallory")] })).rejects.toMatchObject({ name: "TurnkeyRequestError", code: 7 });
    // ...but she may manage her own credentials.
    const second = newP256KeyPair();
    const own = await asAlice.createApiKeys({ userId: aliceId, apiKeys: [{ apiKeyName: "second", publicKey: second.publicKey, curveType: "API_KEY_CURVE_P256" }] });
    expect(own.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(await sdkClient(emu, second).getWhoami({})).toMatchObject({ userId: aliceId });
  });

  it("updates, tags and deletes users", async () => {
    const c = sdkClient(emu);
    const { userIds } = await c.createUsers({ users: [USER_PARAMS("bob")] });
    const bob = userIds[0]!;
    await c.updateUserName({ userId: bob, userName: "robert" });
    await c.updateUserEmail({ userId: bob, userEmail: "robert@example.com" });
    await c.updateUserPhoneNumber({ userId: bob, userPhoneNumber: "+14155550100" });
    const tag = await c.createUserTag({ userTagName: "ops", userIds: [bob] });
    const { user } = await c.getUser({ userId: bob });
    expect(user).toMatchObject({ userName: "robert", userEmail: "robert@example.com", userPhoneNumber: "+14155550100", userTags: [tag.userTagId] });

    await c.updateUserTag({ userTagId: tag.userTagId, newUserTagName: "operations", addUserIds: [], removeUserIds: [bob] });
    const { userTags } = await c.listUserTags({});
    expect(userTags.find((t) => t.tagId === tag.userTagId)).toMatchObject({ tagName: "operations", tagType: "TAG_TYPE_USER" });
    expect((await c.getUser({ userId: bob })).user.userTags).toEqual([]);

    await c.updateUser({ userId: bob, userTagIds: [tag.userTagId] });
    const del = await c.deleteUserTags({ userTagIds: [tag.userTagId] });
    expect(del).toMatchObject({ userTagIds: [tag.userTagId], userIds: [bob] });

    await c.deleteUsers({ userIds: [bob] });
    const { users } = await c.getUsers({});
    expect(users.some((u) => u.userId === bob)).toBe(false);
  });

  it("refuses to delete a root-quorum member", async () => {
    const before = storeCounts(emu);
    await expect(sdkClient(emu).deleteUsers({ userIds: [emu.info.rootUserId] })).rejects.toThrow(/quorum users missing/);
    expect(storeCounts(emu)).toEqual(before);
  });

  it("reports the organization's configuration", async () => {
    const { configs } = await sdkClient(emu).getOrganizationConfigs({});
    expect(configs.quorum).toEqual({ threshold: 1, userIds: [emu.info.rootUserId] });
  });
});

describe("through @turnkey/http", () => {
  it("lists and pages activities newest first, with filters", async () => {
    const c = httpClient(emu);
    const org = emu.info.organizationId;
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = await c.createUserTag({
        type: "ACTIVITY_TYPE_CREATE_USER_TAG",
        organizationId: org,
        timestampMs: String(Date.now()),
        parameters: { userTagName: `page-${i}`, userIds: [] },
      });
      expect(r.activity.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
      ids.push(r.activity.id);
    }
    const filter = { organizationId: org, filterByType: ["ACTIVITY_TYPE_CREATE_USER_TAG" as const] };
    const first = await c.getActivities({ ...filter, paginationOptions: { limit: "2" } });
    expect(first.activities.map((a) => a.id)).toEqual([ids[4], ids[3]]);
    const next = await c.getActivities({ ...filter, paginationOptions: { limit: "2", before: ids[3] } });
    expect(next.activities.map((a) => a.id)).toEqual([ids[2], ids[1]]);
    const back = await c.getActivities({ ...filter, paginationOptions: { limit: "2", after: ids[1] } });
    expect(back.activities.map((a) => a.id)).toEqual([ids[3], ids[2]]);
    const all = await c.getActivities({ ...filter, paginationOptions: { limit: "100" } });
    expect(all.activities.length).toBeGreaterThanOrEqual(5);
    const failed = await c.getActivities({ organizationId: org, filterByStatus: ["ACTIVITY_STATUS_REJECTED"] });
    expect(failed.activities).toEqual([]);
    const one = await c.getActivity({ organizationId: org, activityId: ids[0]! });
    expect(one.activity.intent.createUserTagIntent?.userTagName).toBe("page-0");
    expect(one.activity.votes[0]!.userId).toBe(emu.info.rootUserId);
  });

  it("returns the same activity for an identical resubmission", async () => {
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_USER_TAG", { userTagName: "idempotent", userIds: [] });
    const a = await rawPost(emu, "/public/v1/submit/create_user_tag", body);
    const b = await rawPost(emu, "/public/v1/submit/create_user_tag", body);
    expect(a.status).toBe(200);
    expect(b.json.activity.id).toBe(a.json.activity.id);
  });

  it("defaults the page size to 10 and bounds it to 1..100", async () => {
    const c = httpClient(emu);
    const org = emu.info.organizationId;
    for (let i = 0; i < 11; i++) await sdkClient(emu).createUserTag({ userTagName: `fill-${i}`, userIds: [] });
    expect((await c.getActivities({ organizationId: org })).activities).toHaveLength(10);
    for (const limit of ["0", "101", "abc"]) {
      const body = JSON.stringify({ organizationId: org, paginationOptions: { limit } });
      const r = await rawPost(emu, "/public/v1/query/list_activities", body);
      expect(r.status).toBe(400);
      expect(r.json.message).toMatch(/limit/);
    }
  });
});

describe("routing", () => {
  it("answers routed but unemulated operations with 501 naming them", async () => {
    const body = JSON.stringify({ organizationId: emu.info.organizationId, appName: "signer" });
    const r = await rawPost(emu, "/public/v1/query/get_latest_boot_proof", body);
    expect(r.status).toBe(501);
    expect(r.json).toMatchObject({ code: 12, message: expect.stringContaining("get_latest_boot_proof") });
    expect(r.json.message).toMatch(/real enclave/);
  });

  it("answers unknown paths with 404 rpcStatus", async () => {
    const r = await rawPost(emu, "/public/v1/submit/make_me_rich", "{}");
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 5, details: [] });
  });

  it("serves its OpenAPI document with every coordinator path", async () => {
    const doc = await (await fetch(`${emu.url}/openapi.json`)).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.paths["/public/v1/submit/create_wallet"].post["x-activity-type"]).toBe("ACTIVITY_TYPE_CREATE_WALLET");
    expect(doc.paths["/public/v1/submit/create_wallet"].post["x-emulated"]).toBe(true);
    expect(doc.paths["/v1/otp_init"].post["x-emulated"]).toBe(true);
    expect(doc.paths["/public/v1/query/get_boot_proof"].post).toMatchObject({ "x-emulated": false, "x-not-emulated-because": expect.stringContaining("enclave") });
    expect(doc.servers[0].url).toBe(emu.url);
  });

  it("answers CORS preflight with the headers the browser SDKs send", async () => {
    const res = await fetch(`${emu.url}/public/v1/query/whoami`, {
      method: "OPTIONS",
      headers: { origin: "http://localhost:3000", "access-control-request-method": "POST", "access-control-request-headers": "x-stamp,content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("http://localhost:3000");
    const allowed = res.headers.get("access-control-allow-headers")!.toLowerCase();
    for (const h of ["x-stamp", "x-stamp-webauthn", "x-stamp-attested", "x-client-version", "x-auth-proxy-config-id", "x-session"]) expect(allowed).toContain(h);
    expect([res.headers.get("access-control-allow-methods"), res.headers.get("access-control-max-age")]).toEqual(["GET, POST, OPTIONS", "600"]);
  });

  it("names the origin on an answer, and keeps the preflight's own headers to preflights (the Fetch standard's CORS protocol)", async () => {
    const res = await fetch(`${emu.url}/public/v1/query/whoami`, { method: "POST", headers: { origin: "http://localhost:3000", "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    const cors: Record<string, string> = {};
    res.headers.forEach((value, name) => (name.startsWith("access-control-") || name === "vary") && (cors[name] = value));
    expect(cors).toEqual({ "access-control-allow-origin": "http://localhost:3000", "access-control-expose-headers": expect.stringContaining("Retry-After"), vary: "Origin" });
  });

  it("info names the seeded organization and dev key", async () => {
    const info = await (await fetch(`${emu.url}/emulator/v1/info`)).json();
    expect(info).toMatchObject({ baseUrl: emu.url, authProxyUrl: emu.proxyUrl, organizationId: emu.info.organizationId, apiPublicKey: devKey(emu).publicKey });
  });
});
