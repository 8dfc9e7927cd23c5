/**
 * Issue 31: the operations @turnkey/http 6.6 calls beyond the first document, and the older
 * activity types other official SDKs still send (Python, Kotlin, Ruby, Dart: their generated
 * clients put these literals in `type`), answered with the type sent and its own result member.
 */
import { describe, expect, it } from "vitest";
import { httpClient, newP256KeyPair, rawPost, sdkClient, submitBody } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { lastMail, mintIdToken } from "./auth/support.js";

const emu = useTestEmulator();
const now = () => String(Date.now());

describe("get_organization (@turnkey/http getOrganization)", () => {
  it("is the organization's whole record, each list as its own query gives it", async () => {
    const c = sdkClient(emu);
    const { organizationData: o } = await httpClient(emu).getOrganization({ organizationId: emu.info.organizationId });
    expect(o.organizationId).toBe(emu.info.organizationId);
    expect(o.name).toBe(emu.info.organizationName);
    expect(o.users).toEqual((await c.getUsers({})).users);
    expect(o.wallets).toEqual((await c.getWallets({})).wallets);
    expect(o.policies).toEqual((await c.getPolicies({})).policies);
    expect(o.privateKeys).toEqual((await c.getPrivateKeys({})).privateKeys);
    const configs = (await c.getOrganizationConfigs({})).configs;
    expect(o.rootQuorum).toEqual(configs.quorum);
    expect(o.features ?? []).toEqual(configs.features ?? []);
  });

  it("names the unknown organization's id after the documented message", async () => {
    const wrong = "00000000-0000-4000-8000-000000000000";
    await expect(httpClient(emu).getOrganization({ organizationId: wrong })).rejects.toThrow(`no organization found with the given ID: ${wrong}`);
  });
});

describe("get_active_policies (@turnkey/http getActivePolicies)", () => {
  it("reports each policy's time window at the emulated now; a policy without one is always active", async () => {
    const c = sdkClient(emu);
    const nowMs = ((await (await fetch(`${emu.url}/emulator/v1/clock`)).json()) as { now: number }).now;
    const from = new Date(nowMs + 3_600_000).toISOString().replace(/\.\d+Z$/, "Z");
    const time = `time.now >= Timestamp('${from}')`;
    const always = await c.createPolicy({ policyName: `always ${now()}`, effect: "EFFECT_ALLOW", condition: "false", notes: "" });
    const later = await c.createPolicy({ policyName: `later ${now()}`, effect: "EFFECT_ALLOW", condition: "false", notes: "", time } as never);
    const statuses = async () => {
      const r = await httpClient(emu).getActivePolicies({ organizationId: emu.info.organizationId });
      expect(Number(r.evaluatedAtMs)).toBeGreaterThan(0);
      return Object.fromEntries(r.statuses.map((s) => [s.policyId, s]));
    };
    const before = await statuses();
    expect(before[always.policyId]).toEqual({ organizationId: emu.info.organizationId, policyId: always.policyId, active: true });
    expect(before[later.policyId]).toEqual({ organizationId: emu.info.organizationId, policyId: later.policyId, active: false, timeExpr: time });
    const res = await fetch(`${emu.url}/emulator/v1/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advanceMs: 2 * 3_600_000 }) });
    expect(res.status).toBe(200);
    expect((await statuses())[later.policyId]!.active).toBe(true);
    await fetch(`${emu.url}/emulator/v1/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ set: Date.now() }) });
  });
});

describe("older activity types official SDKs send", () => {
  /** Submits `parameters` under an older `type` at the current path, as a generated client would. */
  async function submitAs(path: string, type: string, parameters: unknown) {
    const r = await rawPost(emu, `/public/v1/submit/${path}`, submitBody(emu, type, parameters));
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    return r.json.activity as { type: string; status: string; result: Record<string, unknown>; intent: Record<string, unknown> };
  }

  it("create_users V3 (Python, Kotlin, Ruby, Dart) makes the user, typed V3, result createUsersResult", async () => {
    const key = newP256KeyPair();
    const a = await submitAs("create_users", "ACTIVITY_TYPE_CREATE_USERS_V3", {
      users: [{ userName: `v3 ${now()}`, apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }],
    });
    expect(a.type).toBe("ACTIVITY_TYPE_CREATE_USERS_V3");
    expect(a.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(Object.keys(a.intent)).toEqual(["createUsersIntentV3"]);
    const userIds = (a.result.createUsersResult as { userIds: string[] }).userIds;
    expect((await sdkClient(emu, key).getWhoami({})).userId).toBe(userIds[0]);
  });

  it("create_oauth_providers V1 (Python, Kotlin, Ruby, Dart) links the identity, typed V1", async () => {
    const { userId } = await sdkClient(emu).getWhoami({});
    const oidcToken = await mintIdToken(emu, { sub: `v1-${now()}`, aud: "v1-app" });
    const a = await submitAs("create_oauth_providers", "ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS", { userId, oauthProviders: [{ providerName: "v1", oidcToken }] });
    expect(a.type).toBe("ACTIVITY_TYPE_CREATE_OAUTH_PROVIDERS");
    const providerIds = (a.result.createOauthProvidersResult as { providerIds: string[] }).providerIds;
    const { oauthProviders } = await sdkClient(emu).getOauthProviders({ userId });
    expect(oauthProviders.map((p) => p.providerId)).toContain(providerIds[0]);
  });

  it.each(["ACTIVITY_TYPE_INIT_OTP_V2", "ACTIVITY_TYPE_INIT_OTP"])("init_otp as %s (Kotlin, Ruby / Dart) sends the code", async (type) => {
    const contact = `otp-${type.toLowerCase()}-${now()}@example.com`;
    const a = await submitAs("init_otp", type, { otpType: "OTP_TYPE_EMAIL", contact, appName: "legacy", otpLength: 6, alphanumeric: false });
    expect(a.type).toBe(type);
    expect(a.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await lastMail(emu, contact)).body).toMatch(/\b\d{6}\b/);
    // The first version's result has only the OTP id; V2 adds the encryption target bundle.
    const result = Object.values(a.result)[0] as Record<string, unknown>;
    expect(Object.keys(result).sort()).toEqual(type === "ACTIVITY_TYPE_INIT_OTP" ? ["otpId"] : ["otpEncryptionTargetBundle", "otpId"]);
  });

  it("refuses another family's type at a path, naming type and the four versions create_users takes", async () => {
    const r = await rawPost(emu, "/public/v1/submit/create_users", submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { users: [] }));
    expect([r.status, r.json.code]).toEqual([400, 3]);
    expect(r.json.message).toBe("bad request body: type: invalid value, expected one of ACTIVITY_TYPE_CREATE_USERS_V4, ACTIVITY_TYPE_CREATE_USERS_V3, ACTIVITY_TYPE_CREATE_USERS_V2, ACTIVITY_TYPE_CREATE_USERS");
  });
});
