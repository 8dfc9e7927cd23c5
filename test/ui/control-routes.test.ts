/**
 * The control-API routes the web UI reads, driven over HTTP beside the official SDK: what
 * they show is checked against what @turnkey/sdk-server reads back (and viem for addresses),
 * votes cast through them must move activities as the SDK sees it, and bad input answers a
 * 400/404 rpcStatus naming the field with nothing written.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mnemonicToAccount } from "viem/accounts";
import type { RunningEmulator } from "../../emulator/index.js";
import { newP256KeyPair, readJson, sdkClient, startTestEmulator, storeCounts } from "../support.js";
import { uiFixture, VAULT, type VaultKeys } from "./fixture.js";

let emu: RunningEmulator;
let keys: VaultKeys;

beforeAll(async () => {
  const f = uiFixture();
  keys = f.keys;
  emu = await startTestEmulator({ fixtures: f.fixture });
});
afterAll(async () => {
  await emu.stop();
});

async function get(path: string): Promise<{ status: number; json: any }> {
  const res = await fetch(emu.url + path);
  return { status: res.status, json: await readJson(res) };
}

async function post(path: string, body: unknown): Promise<{ status: number; json: any }> {
  const res = await fetch(emu.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: res.status, json: await readJson(res) };
}

const fieldOf = (json: any): string | undefined => json?.details?.flatMap((d: any) => d.fieldViolations ?? []).map((v: any) => v.field)[0];
const vault = (k: keyof VaultKeys) => sdkClient(emu, keys[k], VAULT.organizationId);

describe("organizations", () => {
  it("lists the fixture's organizations as a tree, and a sub-organization made through the SDK under its parent", async () => {
    const before = await get("/emulator/v1/organizations");
    expect(before.status).toBe(200);
    expect(before.json.organizations.map((o: any) => o.organizationName)).toEqual(["Emulator Dev Organization", "Vault"]);

    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "tree child",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "child root", userEmail: "child@example.com", apiKeys: [], authenticators: [], oauthProviders: [] }],
    });
    const after = (await get("/emulator/v1/organizations")).json.organizations;
    const parent = after.find((o: any) => o.organizationId === emu.info.organizationId);
    expect(parent.subOrganizations).toEqual([expect.objectContaining({ organizationId: sub.subOrganizationId, organizationName: "tree child", parentOrganizationId: emu.info.organizationId, deleted: false })]);
    expect(parent.subOrganizations[0].counts.users).toBe(1);
  });

  it("counts each organization's users, wallets, private keys, policies and activities as the SDK lists them", async () => {
    const c = sdkClient(emu);
    await c.createPrivateKeys({ privateKeys: [{ privateKeyName: "counted key", curve: "CURVE_ED25519", addressFormats: [], privateKeyTags: [] }] });
    await c.createPolicy({ policyName: "counted policy", effect: "EFFECT_ALLOW", condition: "activity.type == 'ACTIVITY_TYPE_CREATE_WALLET'", notes: "" });
    const tree = (await get("/emulator/v1/organizations")).json.organizations;
    for (const [org, client] of [
      [emu.info.organizationId, c],
      [VAULT.organizationId, vault("alice")],
    ] as const) {
      const [users, wallets, keys, policies, activities] = await Promise.all([client.getUsers({}), client.getWallets({}), client.getPrivateKeys({}), client.getPolicies({}), client.getActivities({})]);
      const counts = { users: users.users.length, wallets: wallets.wallets.length, privateKeys: keys.privateKeys.length, policies: policies.policies.length, activities: activities.activities.length };
      expect(tree.find((o: any) => o.organizationId === org).counts, org).toEqual(counts);
    }
  });

  it("marks a deleted sub-organization, which keeps only its activity history", async () => {
    const c = sdkClient(emu);
    const rootUsers = [{ userName: "leaving root", apiKeys: [{ apiKeyName: "dev", publicKey: emu.info.apiPublicKey!, curveType: "API_KEY_CURVE_P256" as const }], authenticators: [], oauthProviders: [] }];
    const { subOrganizationId } = await c.createSubOrganization({ subOrganizationName: "leaving", rootQuorumThreshold: 1, rootUsers, wallet: { walletName: "leaving wallet", accounts: [] } });
    const child = () => get("/emulator/v1/organizations").then((r) => r.json.organizations.find((o: any) => o.organizationId === emu.info.organizationId).subOrganizations.find((o: any) => o.organizationId === subOrganizationId));
    expect(await child()).toMatchObject({ deleted: false, counts: { users: 1, wallets: 1, privateKeys: 0, policies: 0, activities: 0 } });
    await sdkClient(emu, undefined, subOrganizationId).deleteSubOrganization({ deleteWithoutExport: true });
    // What is left: the deletion, an activity of the sub-organization itself.
    expect(await child()).toMatchObject({ deleted: true, counts: { users: 0, wallets: 0, privateKeys: 0, policies: 0, activities: 1 } });
  });

  it("shows an organization's users, quorum and wallets as the SDK reads them, with addresses viem derives", async () => {
    const { status, json } = await get(`/emulator/v1/organizations/${emu.info.organizationId}`);
    expect(status).toBe(200);
    const c = sdkClient(emu);
    const { users } = await c.getUsers({});
    expect(json.users.map((u: any) => u.userId).sort()).toEqual(users.map((u) => u.userId).sort());
    const root = json.users.find((u: any) => u.userId === emu.info.rootUserId);
    expect(root).toMatchObject({ root: true, userEmail: "dev@example.com", emulatorHoldsKey: true });
    expect(root.apiKeys.map((k: any) => k.credential.publicKey)).toContain(emu.info.apiPublicKey);
    const configs = await c.getOrganizationConfigs({});
    expect(json.organization.rootQuorum).toEqual({ threshold: configs.configs.quorum!.threshold, userIds: configs.configs.quorum!.userIds });

    const accounts = (await c.getWalletAccounts({ walletId: emu.info.walletId! })).accounts;
    const shown = json.wallets.find((w: any) => w.walletId === emu.info.walletId).accounts;
    expect(shown.map((a: any) => [a.address, a.path, a.addressFormat])).toEqual(accounts.map((a) => [a.address, a.path, a.addressFormat]));
    const anvil0 = mnemonicToAccount("test test test test test test test test test test test junk").address;
    expect(shown[0].address).toBe(anvil0);
    // Never the proxy's sealed key.
    expect(JSON.stringify(json)).not.toMatch(/proxyKeySealed|privateKeySealed|mnemonic/i);
  });

  it("answers 404 for an unknown organization", async () => {
    const r = await get("/emulator/v1/organizations/00000000-0000-4000-8000-000000000000");
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 5, message: expect.stringContaining("organization not found") });
  });
});

describe("activities", () => {
  it("lists what the SDK lists, newest first, filtered by organization, status, type and user", async () => {
    const c = sdkClient(emu);
    await c.createWallet({ walletName: "list me", accounts: [] });
    await c.createPrivateKeys({ privateKeys: [{ privateKeyName: "list key", curve: "CURVE_SECP256K1", addressFormats: [], privateKeyTags: [] }] });
    const sdk = (await c.getActivities({})).activities;
    const ours = (await get(`/emulator/v1/activities?organizationId=${emu.info.organizationId}&limit=1000`)).json;
    expect(ours.activities.map((a: any) => a.id)).toEqual(sdk.map((a) => a.id));
    expect(ours.total).toBe(sdk.length);

    const wallets = (await get(`/emulator/v1/activities?type=ACTIVITY_TYPE_CREATE_WALLET&status=COMPLETED&userId=${emu.info.rootUserId}`)).json;
    expect(wallets.activities.length).toBeGreaterThan(0);
    expect(wallets.activities.every((a: any) => a.type === "ACTIVITY_TYPE_CREATE_WALLET" && a.status === "ACTIVITY_STATUS_COMPLETED" && a.userId === emu.info.rootUserId)).toBe(true);
    expect(wallets.types).toEqual(expect.arrayContaining(["ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS_V2"]));

    // Paging: next is the cursor of the following page.
    const first = (await get("/emulator/v1/activities?limit=1")).json;
    const second = (await get(`/emulator/v1/activities?limit=1&before=${first.next}`)).json;
    expect([first.activities[0].id, second.activities[0].id]).toEqual(sdk.slice(0, 2).map((a) => a.id));
  });

  it("refuses malformed filters naming the parameter", async () => {
    for (const [query, field] of [
      ["status=DONE", "status"],
      ["type=create_wallet", "type"],
      ["limit=0", "limit"],
      ["limit=abc", "limit"],
      ["before=nope", "before"],
    ] as const) {
      const r = await get(`/emulator/v1/activities?${query}`);
      expect(r.status, query).toBe(400);
      expect(r.json.code).toBe(3);
      expect(fieldOf(r.json), query).toBe(field);
    }
    expect((await get("/emulator/v1/activities?organizationId=00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await get("/emulator/v1/activities/nope")).status).toBe(404);
  });

  it("approves a 2-of-2 root-quorum activity as the second root user; the SDK sees it COMPLETED with that user's vote", async () => {
    const proposed = await vault("alice").createWallet({ walletName: "two keys", accounts: [] });
    expect(proposed.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    const detail = (await get(`/emulator/v1/activities/${proposed.activity.id}`)).json;
    expect(detail.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
    expect(detail.voters.find((v: any) => v.userId === VAULT.alice)).toMatchObject({ vote: "VOTE_SELECTION_APPROVED", emulatorHoldsKey: true, root: true });
    expect(detail.voters.find((v: any) => v.userId === VAULT.bob)).toMatchObject({ vote: null, emulatorHoldsKey: true });
    expect(detail.voters.find((v: any) => v.userId === VAULT.operator)).toMatchObject({ emulatorHoldsKey: false });

    const r = await post(`/emulator/v1/activities/${proposed.activity.id}/approve`, { userId: VAULT.bob });
    expect(r.status).toBe(200);
    expect(r.json.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(r.json.voter).toMatchObject({ userId: VAULT.bob, publicKey: keys.bob.publicKey });

    const seen = (await vault("alice").getActivity({ activityId: proposed.activity.id })).activity;
    expect(seen.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(seen.votes.map((v) => [v.userId, v.selection, v.publicKey])).toEqual([
      [VAULT.alice, "VOTE_SELECTION_APPROVED", keys.alice.publicKey],
      [VAULT.bob, "VOTE_SELECTION_APPROVED", keys.bob.publicKey],
    ]);
    // Bob's vote is a real approve_activity request: its message is the signed body naming the fingerprint.
    expect(JSON.parse(seen.votes[1]!.message)).toMatchObject({ type: "ACTIVITY_TYPE_APPROVE_ACTIVITY", organizationId: VAULT.organizationId, parameters: { fingerprint: proposed.activity.fingerprint } });
    expect((await vault("bob").getWallets({})).wallets.map((w) => w.walletName)).toContain("two keys");
  });

  it("rejects as a chosen user, and votes with a pasted key for a user the emulator holds no key of", async () => {
    const a = await vault("alice").createWallet({ walletName: "rejected", accounts: [] });
    const rej = await post(`/emulator/v1/activities/${a.activity.id}/reject`, { userId: VAULT.bob });
    expect(rej.status).toBe(200);
    expect((await vault("bob").getActivity({ activityId: a.activity.id })).activity.status).toBe("ACTIVITY_STATUS_REJECTED");

    // The operator's key is not published: refused without it, counted with it (its vote alone does not reach the root quorum).
    const b = await vault("alice").createWallet({ walletName: "operator votes", accounts: [] });
    const refused = await post(`/emulator/v1/activities/${b.activity.id}/approve`, { userId: VAULT.operator });
    expect(refused.status).toBe(400);
    expect(fieldOf(refused.json)).toBe("userId");
    const wrong = await post(`/emulator/v1/activities/${b.activity.id}/approve`, { userId: VAULT.operator, apiPrivateKey: newP256KeyPair().privateKey });
    expect(wrong.status).toBe(400);
    expect(fieldOf(wrong.json)).toBe("apiPrivateKey");
    const withKey = await post(`/emulator/v1/activities/${b.activity.id}/approve`, { userId: VAULT.operator, apiPrivateKey: keys.operator.privateKey });
    expect(withKey.status).toBe(200);
    // Alice proposed (a root vote) and the operator approved: the allow policy for operators now holds.
    expect(withKey.json.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await vault("alice").getActivity({ activityId: b.activity.id })).activity.votes.map((v) => v.userId)).toEqual([VAULT.alice, VAULT.operator]);
  });

  it("refuses bad votes naming the field, writing nothing; the engine's own refusals come back as they are", async () => {
    const a = await vault("alice").createWallet({ walletName: "bad votes", accounts: [] });
    const before = storeCounts(emu);
    for (const [body, field] of [
      [{}, "userId"],
      [{ userId: 7 }, "userId"],
      [{ userId: emu.info.rootUserId }, "userId"], // a user of another organization
      [{ userId: VAULT.operator, apiPrivateKey: "zz" }, "apiPrivateKey"],
    ] as const) {
      const r = await post(`/emulator/v1/activities/${a.activity.id}/approve`, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(fieldOf(r.json), JSON.stringify(body)).toBe(field);
    }
    expect((await post("/emulator/v1/activities/nope/approve", { userId: VAULT.bob })).status).toBe(404);
    const notJson = await fetch(`${emu.url}/emulator/v1/activities/${a.activity.id}/approve`, { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    expect(notJson.status).toBe(400);
    expect(storeCounts(emu)).toEqual(before);

    // Alice already voted (she proposed): the coordinator's answer is relayed.
    const twice = await post(`/emulator/v1/activities/${a.activity.id}/approve`, { userId: VAULT.alice });
    expect(twice.status).toBe(400);
    expect(twice.json.message).toMatch(/already voted/);
  });

  it("shows a denied activity's failure and the policy evaluation that denied it", async () => {
    await expect(vault("alice").deleteUsers({ userIds: [VAULT.operator] })).rejects.toThrow();
    const failed = (await get(`/emulator/v1/activities?organizationId=${VAULT.organizationId}&status=FAILED&type=ACTIVITY_TYPE_DELETE_USERS`)).json.activities;
    expect(failed).toHaveLength(1);
    const d = (await get(`/emulator/v1/activities/${failed[0].id}`)).json;
    const sdkSeen = (await vault("alice").getActivity({ activityId: failed[0].id })).activity;
    expect(d.activity.failure).toEqual(sdkSeen.failure);
    expect(failed[0].failure).toBe(sdkSeen.failure!.message);
    const evaluations = d.policyEvaluations.flatMap((e: any) => e.evaluations);
    expect(evaluations).toContainEqual({ policyId: VAULT.denyPolicy, policyName: "Nobody deletes users", outcome: "OUTCOME_DENY_EXPLICIT" });
    const sdkEvaluations = (await vault("alice").getPolicyEvaluations({ activityId: failed[0].id })).policyEvaluations.flatMap((e) => e.policyEvaluations);
    expect(evaluations.map((e: any) => [e.policyId, e.outcome])).toEqual(sdkEvaluations.map((e) => [e.policyId, e.outcome]));
  });
});

describe("policies/evaluate", () => {
  const wallet = (name: string) => ({ type: "ACTIVITY_TYPE_CREATE_WALLET", organizationId: VAULT.organizationId, parameters: { walletName: name, accounts: [] } });

  it("predicts what a submission then gets", async () => {
    const body = wallet("operator's");
    const allowed = await post("/emulator/v1/policies/evaluate", { activity: body, userId: VAULT.operator });
    expect(allowed.status).toBe(200);
    expect(allowed.json).toMatchObject({ outcome: "ALLOWED", status: "ACTIVITY_STATUS_COMPLETED" });
    expect(allowed.json.policyEvaluations).toContainEqual({ policyId: VAULT.allowPolicy, policyName: "Operators create wallets", outcome: "OUTCOME_ALLOW" });
    expect((await vault("operator").createWallet(body.parameters)).activity.status).toBe("ACTIVITY_STATUS_COMPLETED");

    const consensus = await post("/emulator/v1/policies/evaluate", { activity: wallet("alice's"), userId: VAULT.alice });
    expect(consensus.json).toMatchObject({ outcome: "CONSENSUS_NEEDED" });
    expect((await post("/emulator/v1/policies/evaluate", { activity: wallet("alice's"), userId: VAULT.alice, approverIds: [VAULT.bob] })).json.outcome).toBe("ALLOWED");

    const del = { type: "ACTIVITY_TYPE_DELETE_USERS", organizationId: VAULT.organizationId, parameters: { userIds: [VAULT.bob] } };
    const denied = await post("/emulator/v1/policies/evaluate", { activity: del, userId: VAULT.operator });
    expect(denied.json).toMatchObject({ outcome: "DENIED", status: "ACTIVITY_STATUS_FAILED" });
    expect(denied.json.policyEvaluations).toContainEqual({ policyId: VAULT.denyPolicy, policyName: "Nobody deletes users", outcome: "OUTCOME_DENY_EXPLICIT" });
    const real = await vault("operator")
      .deleteUsers({ userIds: [VAULT.bob] })
      .then(() => null)
      .catch((e: any) => e);
    expect(String(real?.message ?? "")).toContain(denied.json.failure.message);
  });

  it("reads an activity as get_activity returns it, and records nothing", async () => {
    const a = await vault("alice").createWallet({ walletName: "from get_activity", accounts: [] });
    const before = storeCounts(emu);
    const r = await post("/emulator/v1/policies/evaluate", { activity: a.activity, userId: VAULT.alice, approverIds: [VAULT.bob] });
    expect(r.status).toBe(200);
    expect(r.json.outcome).toBe("ALLOWED");
    expect(storeCounts(emu)).toEqual(before);
  });

  it("refuses bad input naming the field", async () => {
    for (const [body, field, status] of [
      [{ userId: VAULT.alice }, "activity", 400],
      [{ activity: { parameters: {} }, userId: VAULT.alice }, "activity.type", 400],
      [{ activity: { type: "ACTIVITY_TYPE_NOPE", parameters: {} }, userId: VAULT.alice }, "activity.type", 400],
      [{ activity: { type: "ACTIVITY_TYPE_CREATE_WALLET" }, userId: VAULT.alice }, "activity.parameters", 400],
      [{ activity: { type: "ACTIVITY_TYPE_CREATE_WALLET", parameters: { accounts: [] } }, userId: VAULT.alice }, "activity.parameters.walletName", 400],
      [{ activity: wallet("x") }, "userId", 400],
      [{ activity: wallet("x"), userId: VAULT.alice, approverIds: "bob" }, "approverIds", 400],
      [{ activity: wallet("x"), userId: VAULT.alice, approverIds: [emu.info.rootUserId] }, "approverIds[0]", 400],
      [{ activity: wallet("x"), userId: emu.info.rootUserId }, "userId", 400],
    ] as const) {
      const r = await post("/emulator/v1/policies/evaluate", body);
      expect(r.status, JSON.stringify(body)).toBe(status);
      expect(fieldOf(r.json), JSON.stringify(body)).toBe(field);
    }
    expect((await post("/emulator/v1/policies/evaluate", { activity: wallet("x"), userId: "00000000-0000-4000-8000-000000000000" })).status).toBe(404);
  });
});

describe("changes and the UI's files", () => {
  it("moves the version on a write through the SDK, and streams it as server-sent events", async () => {
    const v1 = (await get("/emulator/v1/changes")).json.version;
    expect((await get("/emulator/v1/changes")).json.version).toBe(v1);
    await sdkClient(emu).createWallet({ walletName: "version bump", accounts: [] });
    const v2 = (await get("/emulator/v1/changes")).json.version;
    expect(v2).not.toBe(v1);

    const ac = new AbortController();
    const res = await fetch(`${emu.url}/emulator/v1/changes`, { headers: { accept: "text/event-stream" }, signal: ac.signal });
    expect(res.headers.get("content-type")).toContain("text/event-stream");
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain("event: change");
    expect(JSON.parse(first.split("data: ")[1]!).version).toBe(v2);
    await sdkClient(emu).createWallet({ walletName: "streamed", accounts: [] });
    const next = new TextDecoder().decode((await reader.read()).value);
    expect(JSON.parse(next.split("data: ")[1]!).version).not.toBe(v2);
    ac.abort();
  });

  it("serves the page and its modules", async () => {
    const redirect = await fetch(`${emu.url}/emulator/ui`, { redirect: "manual" });
    expect(redirect.status).toBe(301);
    expect(redirect.headers.get("location")).toBe("/emulator/ui/");
    const page = await fetch(`${emu.url}/emulator/ui/`);
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('src="./app.js"');
    // The stylesheet travels inside the page (no second request before the first paint).
    expect(html).toContain(".tabs a.active");
    expect(html).not.toContain('href="./app.css"');
    expect((await fetch(`${emu.url}/emulator/ui/app.css`)).headers.get("content-type")).toContain("text/css");
    const app = await fetch(`${emu.url}/emulator/ui/app.js`);
    expect(app.headers.get("content-type")).toMatch(/javascript/);
    expect((await fetch(`${emu.url}/emulator/ui/nope.js`)).status).toBe(404);
    // Only the files under emulator/ui/assets: an encoded climb out of the folder finds nothing.
    expect((await fetch(`${emu.url}/emulator/ui/..%2f..%2f..%2fpackage.json`)).status).toBe(404);
    expect((await fetch(`${emu.url}/emulator/ui/%2e%2e/%2e%2e/%2e%2e/package.json`)).status).toBe(404);
    // Revalidation: the same ETag answers 304 with no body.
    const again = await fetch(`${emu.url}/emulator/ui/app.js`, { headers: { "if-none-match": app.headers.get("etag")! } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe("");
  });
});
