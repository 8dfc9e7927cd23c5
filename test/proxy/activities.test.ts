/**
 * enable_auth_proxy / disable_auth_proxy / update_auth_proxy_config. The published API has no
 * submit route for them, so they are submitted to the activity engine directly, as the dev
 * root user; their effect is observed through the proxy with @turnkey/core.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getAuthProxyConfig } from "@turnkey/core";
import type { OperationContract } from "../../contracts/index.js";
import { submitActivity } from "../../emulator/activities/engine.js";
import type { RunningEmulator } from "../../emulator/index.js";
import { sdkClient, startTestEmulator } from "../support.js";
import { proxyPost } from "./support.js";

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startTestEmulator();
});
afterAll(async () => {
  await emu.stop();
});

const op = (name: string, type: string, intentKey: string, resultKey: string) => ({ kind: "submit", name, activityType: type, intentKey, resultKey }) as unknown as OperationContract;

async function submit(name: string, type: string, intentKey: string, resultKey: string, parameters: Record<string, unknown>) {
  const { store } = emu.runtime;
  const org = store.organizations.get(emu.info.organizationId)!;
  const key = store.apiKeys.forUser(emu.info.rootUserId)[0]!;
  const body = { type, timestampMs: String(Date.now()), organizationId: org.id, parameters };
  const caller = { user: store.users.byId(emu.info.rootUserId)!, org, credential: { kind: "api_key" as const, id: key.id, publicKey: key.publicKey, type: key.credentialType, scheme: "SIGNATURE_SCHEME_TK_API_P256", signature: "" } };
  const a = await submitActivity(emu.runtime, { op: op(name, type, intentKey, resultKey), body, rawBody: Buffer.from(JSON.stringify(body) + Math.random()), caller, target: org });
  expect(a.status).toBe("ACTIVITY_STATUS_COMPLETED");
  return a.result[resultKey] as Record<string, unknown>;
}

describe("auth proxy activities", () => {
  it("disable → the proxy answers 403; enable again → same config id, the proxy user works again", async () => {
    const configId = emu.info.authProxyConfigId!;
    await expect(submit("enable_auth_proxy", "ACTIVITY_TYPE_ENABLE_AUTH_PROXY", "enableAuthProxyIntent", "enableAuthProxyResult", {})).rejects.toThrow(/already enabled/);
    expect(await submit("disable_auth_proxy", "ACTIVITY_TYPE_DISABLE_AUTH_PROXY", "disableAuthProxyIntent", "disableAuthProxyResult", {})).toEqual({});
    const off = await proxyPost(emu, "/v1/wallet_kit_config", undefined, { "X-Auth-Proxy-Config-ID": configId });
    expect([off.status, off.json.code]).toEqual([403, 7]);
    const { userId } = await submit("enable_auth_proxy", "ACTIVITY_TYPE_ENABLE_AUTH_PROXY", "enableAuthProxyIntent", "enableAuthProxyResult", {});
    const { users } = await sdkClient(emu).getUsers({});
    expect(users.find((u) => u.userId === userId)?.userName).toBe("Auth Proxy");
    expect((await getAuthProxyConfig(configId, emu.proxyUrl)).organizationId).toBe(emu.info.organizationId);
  });

  it("update_auth_proxy_config changes what wallet_kit_config reports and refuses bad values", async () => {
    const configId = emu.info.authProxyConfigId!;
    const r = await submit("update_auth_proxy_config", "ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG", "updateAuthProxyConfigIntent", "updateAuthProxyConfigResult", {
      sessionExpirationSeconds: 3600,
      otpLength: 8,
      otpAlphanumeric: true,
      walletKitSettings: { enabledSocialProviders: ["google"], oauthClientIds: { google: "g-client" }, oauthRedirectUrl: "https://app.example/cb" },
    });
    expect(r).toEqual({ configId });
    expect(await getAuthProxyConfig(configId, emu.proxyUrl)).toMatchObject({
      sessionExpirationSeconds: "3600",
      otpLength: "8",
      otpAlphanumeric: true,
      oauthClientIds: { google: "g-client" },
      oauthRedirectUrl: "https://app.example/cb",
      enabledProviders: ["email", "sms", "passkey", "wallet", "google"],
    });
    await expect(submit("update_auth_proxy_config", "ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG", "updateAuthProxyConfigIntent", "updateAuthProxyConfigResult", { otpLength: 5 })).rejects.toThrow(/otpLength/);
    await expect(
      submit("update_auth_proxy_config", "ACTIVITY_TYPE_UPDATE_AUTH_PROXY_CONFIG", "updateAuthProxyConfigIntent", "updateAuthProxyConfigResult", { allowedOrigins: ["https://*.example.com"] }),
    ).rejects.toThrow(/exact origin/);
  });

  it("the proxy key is sealed at rest (no plain private key in the row)", () => {
    const row = emu.runtime.store.db.prepare("SELECT * FROM auth_proxy_configs").get() as Record<string, string>;
    expect(row.proxy_key_sealed).toMatch(/^s1\./);
    const opened = emu.runtime.store.sealer.open(row.proxy_key_sealed);
    expect(opened).toHaveLength(32);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(opened).toString("hex"));
  });
});
