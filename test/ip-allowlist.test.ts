/**
 * IP allowlists end to end through @turnkey/sdk-server (and raw stamped requests where a header
 * must be set): the lists are set, read and removed as activities and a query; once the
 * organization-level list is enabled, a request from an address outside it is refused before
 * anything is read or written; an API key's own list overrides the organization's for that key;
 * X-Forwarded-For counts only on an instance started with trustProxy; sub-organization
 * credentials and the control API are never subject to it.
 */
import { afterEach, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../emulator/index.js";
import { createApiKeyUser, devKey, newP256KeyPair, rawPost, readJson, sdkClient, startCliEmulator, storeCounts, submitBody, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const NOT_LOOPBACK = "203.0.113.0/24";
const REFUSED = /^request not authorized: source IP address 127\.0\.0\.1 is not in the IP allowlist of organization /;

const emu = useTestEmulator();
const proxied = useTestEmulator({ trustProxy: true });

afterEach(async () => {
  // Every test starts from the seeded state (an allowlist left behind would lock the next test out).
  for (const e of [emu, proxied]) expect((await fetch(`${e.url}/emulator/v1/reset`, { method: "POST" })).status).toBeLessThan(300);
});

const whoami = (e: RunningEmulator, key?: KeyPair, headers?: Record<string, string>) =>
  rawPost(e, "/public/v1/query/whoami", JSON.stringify({ organizationId: e.info.organizationId }), { key, headers });

async function enable(e: RunningEmulator, cidrs: string[], extra: Record<string, unknown> = {}): Promise<void> {
  await sdkClient(e).setIpAllowlist({ enabled: true, rules: cidrs.map((cidr) => ({ cidr })), ...extra });
}

describe("set, get and remove through @turnkey/sdk-server", () => {
  it("reads back normalized, deduplicated rules with labels and creation times; a staged list (enabled: false) enforces nothing", async () => {
    const api = sdkClient(emu);
    expect((await api.getIpAllowlist({})).allowlist).toEqual({ organizationId: emu.info.organizationId, enabled: false, rules: [] });
    const r = await api.setIpAllowlist({
      enabled: false,
      rules: [
        { cidr: "192.168.1.100/24", label: "Office VPN" },
        { cidr: "192.168.1.0/24", label: "duplicate" },
        { cidr: "2001:DB8:0:0::5/48" },
      ],
    });
    expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    const { allowlist } = await api.getIpAllowlist({});
    expect(allowlist).toMatchObject({ organizationId: emu.info.organizationId, enabled: false, onEvaluationError: "DENY" });
    expect(allowlist.rules.map((x) => [x.cidr, x.label])).toEqual([
      ["192.168.1.0/24", "Office VPN"],
      ["2001:db8::/48", ""],
    ]);
    expect(Number(allowlist.rules[0]!.createdAt)).toBeGreaterThan(0);
    expect((await whoami(emu)).status).toBe(200);

    await api.removeIpAllowlist({});
    expect((await api.getIpAllowlist({})).allowlist.rules).toEqual([]);
    // Removing again changes nothing.
    await api.removeIpAllowlist({});
  });

  it("an enabled list that includes the loopback client lets it through", async () => {
    await enable(emu, ["127.0.0.0/24", NOT_LOOPBACK]);
    expect((await whoami(emu)).status).toBe(200);
    expect((await sdkClient(emu).getIpAllowlist({})).allowlist.enabled).toBe(true);
  });
});

describe("enforcement", () => {
  it("refuses the next request from outside the range with 403 / code 7, and writes nothing", async () => {
    await enable(emu, [NOT_LOOPBACK]);
    const q = await whoami(emu);
    expect(q.status).toBe(403);
    expect(q.json).toMatchObject({ code: 7, details: [{ turnkeyErrorCode: "REQUEST_NOT_AUTHORIZED" }] });
    expect(q.json.message).toMatch(REFUSED);

    const before = storeCounts(emu);
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "blocked", accounts: [] });
    const s = await rawPost(emu, "/public/v1/submit/create_wallet", body);
    expect(s.status).toBe(403);
    expect(s.json.message).toMatch(REFUSED);
    expect(storeCounts(emu)).toEqual(before);

    // Through the SDK: the request error carries the message.
    await expect(sdkClient(emu).getWallets({})).rejects.toThrow(/is not in the IP allowlist/);
    // The list itself cannot be read or removed from outside it either.
    await expect(sdkClient(emu).removeIpAllowlist({})).rejects.toThrow(/is not in the IP allowlist/);
  });

  it("an enabled list with no rules blocks every request (the documented warning)", async () => {
    await sdkClient(emu).setIpAllowlist({ enabled: true, rules: [] });
    expect((await whoami(emu)).status).toBe(403);
  });

  it("never locks out the control API, which can reset the instance", async () => {
    await enable(emu, [NOT_LOOPBACK]);
    expect((await whoami(emu)).status).toBe(403);
    const info = await fetch(`${emu.url}/emulator/v1/info`);
    expect(info.status).toBe(200);
    expect((await readJson(info)).organizationId).toBe(emu.info.organizationId);
    expect((await fetch(`${emu.url}/emulator/v1/reset`, { method: "POST" })).status).toBeLessThan(300);
    expect((await whoami(emu)).status).toBe(200);
  });

  it("does not apply to sub-organization credentials, and a sub-organization cannot set one", async () => {
    const subKey = newP256KeyPair();
    const { subOrganizationId } = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "allowlist-sub",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "sub root", apiKeys: [{ apiKeyName: "k", publicKey: subKey.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const sub = sdkClient(emu, subKey, subOrganizationId);
    await expect(sub.setIpAllowlist({ enabled: true, rules: [{ cidr: NOT_LOOPBACK }] })).rejects.toThrow(/cannot be called by sub-organizations/);
    await enable(emu, [NOT_LOOPBACK]);
    expect((await sub.getWhoami({})).organizationId).toBe(subOrganizationId);
    const w = await sub.createWallet({ walletName: "sub wallet", accounts: [] });
    expect(w.walletId).toBeTruthy();
    // The parent's own key stays refused, also when it addresses the sub-organization.
    await expect(sdkClient(emu, undefined, subOrganizationId).getWallets({})).rejects.toThrow(/is not in the IP allowlist/);
  });

  it("an API key's own list overrides the organization's for that key; an empty one falls back", async () => {
    const other = newP256KeyPair();
    await sdkClient(emu).createApiKeys({ userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "other", publicKey: other.publicKey, curveType: "API_KEY_CURVE_P256" }] });
    await sdkClient(emu).setIpAllowlist({ publicKey: other.publicKey, rules: [{ cidr: NOT_LOOPBACK }] });
    // Not enforced while the organization-level list is absent.
    expect((await whoami(emu, other)).status).toBe(200);
    await enable(emu, ["127.0.0.0/24"]);
    expect((await whoami(emu, devKey(emu))).status).toBe(200);
    const refused = await whoami(emu, other);
    expect(refused.status).toBe(403);
    expect(refused.json.message).toContain(`IP allowlist of API key ${other.publicKey}`);
    const keyList = (await sdkClient(emu).getIpAllowlist({ publicKey: other.publicKey })).allowlist;
    expect(keyList).toMatchObject({ publicKey: other.publicKey, rules: [{ cidr: NOT_LOOPBACK }] });
    expect(keyList.enabled).toBeUndefined();
    // An empty key-level list: the organization's applies (and admits loopback).
    await sdkClient(emu).setIpAllowlist({ publicKey: other.publicKey, rules: [] });
    expect((await whoami(emu, other)).status).toBe(200);
  });
});

describe("a key-level list goes with its API key", () => {
  const allowlistRows = () => storeCounts(emu).ip_allowlists;

  it("deleting the key removes its list: the same public key added again starts with none", async () => {
    const root = sdkClient(emu);
    const other = newP256KeyPair();
    const add = () => root.createApiKeys({ userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "other", publicKey: other.publicKey, curveType: "API_KEY_CURVE_P256" }] });
    const { apiKeyIds } = await add();
    await root.setIpAllowlist({ publicKey: other.publicKey, rules: [{ cidr: NOT_LOOPBACK }] });
    await enable(emu, ["127.0.0.0/24"]);
    expect((await whoami(emu, other)).status).toBe(403);
    expect(allowlistRows()).toBe(2);

    await root.deleteApiKeys({ userId: emu.info.rootUserId, apiKeyIds });
    expect(allowlistRows()).toBe(1);
    await add();
    expect((await whoami(emu, other)).status).toBe(200);
    expect((await root.getIpAllowlist({ publicKey: other.publicKey })).allowlist.rules).toEqual([]);
  });

  it("deleting the user removes the lists of its keys", async () => {
    const root = sdkClient(emu);
    const leaver = await createApiKeyUser(emu, "leaver");
    await root.setIpAllowlist({ publicKey: leaver.key.publicKey, rules: [{ cidr: NOT_LOOPBACK }] });
    expect(allowlistRows()).toBe(1);
    await root.deleteUsers({ userIds: [leaver.id] });
    expect(allowlistRows()).toBe(0);
    await root.createApiKeys({ userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "returning", publicKey: leaver.key.publicKey, curveType: "API_KEY_CURVE_P256" }] });
    expect((await root.getIpAllowlist({ publicKey: leaver.key.publicKey })).allowlist.rules).toEqual([]);
  });

  it("stays while another user of the organization still holds the same public key", async () => {
    const root = sdkClient(emu);
    const first = await createApiKeyUser(emu, "first holder");
    const { userIds } = await root.createUsers({
      users: [{ userName: "second holder", apiKeys: [{ apiKeyName: "k", publicKey: first.key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }],
    });
    await root.setIpAllowlist({ publicKey: first.key.publicKey, rules: [{ cidr: NOT_LOOPBACK }] });
    await root.deleteUsers({ userIds: [first.id] });
    expect((await root.getIpAllowlist({ publicKey: first.key.publicKey })).allowlist.rules).toEqual([expect.objectContaining({ cidr: NOT_LOOPBACK })]);
    await root.deleteUsers({ userIds });
    expect(allowlistRows()).toBe(0);
  });
});

describe("X-Forwarded-For", () => {
  it("is ignored unless the instance trusts a proxy", async () => {
    await enable(emu, ["198.51.100.0/24"]);
    expect((await whoami(emu, undefined, { "x-forwarded-for": "198.51.100.7" })).status).toBe(403);
  });

  it("decides behind a trusted proxy: its leftmost entry is the client", async () => {
    await enable(proxied, ["198.51.100.0/24"]);
    expect((await whoami(proxied, undefined, { "x-forwarded-for": "198.51.100.7" })).status).toBe(200);
    expect((await whoami(proxied, undefined, { "x-forwarded-for": "198.51.100.7, 127.0.0.1" })).status).toBe(200);
    const outside = await whoami(proxied, undefined, { "x-forwarded-for": "192.0.2.1, 198.51.100.7" });
    expect(outside.status).toBe(403);
    expect(outside.json.message).toContain("source IP address 192.0.2.1 ");
    // Without the header the TCP peer (127.0.0.1) counts.
    expect((await whoami(proxied)).status).toBe(403);
  });

  it("an unreadable entry is an evaluation error: DENY by default, ALLOW when the list says so", async () => {
    await enable(proxied, ["198.51.100.0/24"]);
    const denied = await whoami(proxied, undefined, { "x-forwarded-for": "unknown" });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toMatch(/could not be determined/);
    await fetch(`${proxied.url}/emulator/v1/reset`, { method: "POST" });
    await enable(proxied, ["198.51.100.0/24"], { onEvaluationError: "ALLOW" });
    expect((await whoami(proxied, undefined, { "x-forwarded-for": "unknown" })).status).toBe(200);
    // A readable address outside the list is still refused.
    expect((await whoami(proxied, undefined, { "x-forwarded-for": "192.0.2.1" })).status).toBe(403);
  });
});

describe("the CLI flag", () => {
  it("`emulator start --trust-proxy` reads X-Forwarded-For; the same list refuses the bare loopback peer", async () => {
    const { child, url } = await startCliEmulator(["--port", "0", "--trust-proxy"], 30_000);
    try {
      const info = await (await fetch(`${url}/emulator/v1/info`)).json();
      const cli = { url, info } as unknown as RunningEmulator;
      await sdkClient(cli).setIpAllowlist({ enabled: true, rules: [{ cidr: "198.51.100.0/24" }] });
      expect((await whoami(cli, undefined, { "x-forwarded-for": "198.51.100.7" })).status).toBe(200);
      expect((await whoami(cli)).status).toBe(403);
    } finally {
      child.kill("SIGTERM");
    }
  });
});

describe("bad input names the field and writes nothing", () => {
  async function expectRefused(parameters: Record<string, unknown>, status: number, field: string | null, message: RegExp) {
    const before = storeCounts(emu);
    const r = await rawPost(emu, "/public/v1/submit/set_ip_allowlist", submitBody(emu, "ACTIVITY_TYPE_SET_IP_ALLOWLIST", parameters));
    expect(r.status, JSON.stringify(r.json)).toBe(status);
    expect(r.json.message).toMatch(message);
    if (field) expect(r.json.details).toEqual(expect.arrayContaining([{ "@type": "type.googleapis.com/google.rpc.BadRequest", fieldViolations: [{ field, description: expect.any(String) }] }]));
    expect(storeCounts(emu)).toEqual(before);
  }

  it("refuses bad CIDRs by index, blocks wider than /20 or /48, too many blocks, a missing enabled and a bad onEvaluationError", async () => {
    await expectRefused({ enabled: true, rules: [{ cidr: "127.0.0.0/24" }, { cidr: "127.0.0.300/24" }] }, 400, "parameters.rules[1].cidr", /rule 1: invalid CIDR/);
    await expectRefused({ enabled: true, rules: [{ cidr: "10.0.0.0/8" }] }, 400, "parameters.rules[0].cidr", /at most \/20 wide/);
    await expectRefused({ enabled: true, rules: [{ cidr: "2001:db8::/32" }] }, 400, "parameters.rules[0].cidr", /at most \/48 wide/);
    await expectRefused({ enabled: true, rules: Array.from({ length: 11 }, (_, i) => ({ cidr: `10.${i}.0.0/24` })) }, 400, "parameters.rules", /at most 10 IPv4/);
    await expectRefused({ rules: [{ cidr: "127.0.0.0/24" }] }, 400, "parameters.enabled", /enabled .* is required/);
    await expectRefused({ enabled: true, rules: [], onEvaluationError: "MAYBE" }, 400, "parameters.onEvaluationError", /ALLOW or DENY/);
    await expectRefused({ publicKey: newP256KeyPair().publicKey, rules: [] }, 404, null, /no API key with public key/);
  });
});

describe("policies", () => {
  it("a non-root user sets an allowlist only when a policy allows CONFIG UPDATE", async () => {
    const key = newP256KeyPair();
    const root = sdkClient(emu);
    const { userIds } = await root.createUsers({ users: [{ userName: "netops", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    const netops = sdkClient(emu, key);
    await expect(netops.setIpAllowlist({ enabled: false, rules: [] })).rejects.toThrow(/sufficient permissions/);
    await root.createPolicy({
      policyName: "netops manages the allowlist",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${userIds[0]}')`,
      condition: "activity.resource == 'CONFIG' && activity.action == 'UPDATE' && activity.type == 'ACTIVITY_TYPE_SET_IP_ALLOWLIST'",
      notes: "",
    });
    const r = await netops.setIpAllowlist({ enabled: false, rules: [{ cidr: NOT_LOOPBACK, label: "lab" }] });
    expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await root.getIpAllowlist({})).allowlist.rules).toEqual([expect.objectContaining({ cidr: NOT_LOOPBACK, label: "lab" })]);
  });
});
