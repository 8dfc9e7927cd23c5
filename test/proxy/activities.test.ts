/**
 * The auth proxy's configuration through the control API (the published API has no route
 * for it): disable / enable and settings updates, observed through the proxy with
 * @turnkey/core.
 */
import { describe, expect, it } from "vitest";
import { getAuthProxyConfig } from "@turnkey/core";
import { sdkClient } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { proxyPost } from "./support.js";

const emu = useTestEmulator();

async function control(body: Record<string, unknown>): Promise<{ status: number; json: Record<string, unknown> }> {
  const r = await fetch(`${emu.url}/emulator/v1/auth-proxy`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  return { status: r.status, json: (await r.json()) as Record<string, unknown> };
}

describe("auth proxy configuration (control API)", () => {
  it("disable → the proxy answers 403; enable again → same config id, the proxy user works again", async () => {
    const configId = emu.info.authProxyConfigId!;
    const organizationId = emu.info.organizationId;
    expect((await control({ organizationId, enabled: false })).json).toMatchObject({ configId, enabled: false });
    const off = await proxyPost(emu, "/v1/wallet_kit_config", undefined, { "X-Auth-Proxy-Config-ID": configId });
    expect([off.status, off.json.code]).toEqual([403, 7]);
    const on = await control({ organizationId, enabled: true });
    expect(on.json).toMatchObject({ configId, enabled: true });
    const { users } = await sdkClient(emu).getUsers({});
    expect(users.find((u) => u.userId === on.json.proxyUserId)?.userName).toBe("Auth Proxy");
    expect((await getAuthProxyConfig(configId, emu.proxyUrl)).organizationId).toBe(organizationId);
  });

  it("settings change what wallet_kit_config reports; bad values are refused naming the field", async () => {
    const configId = emu.info.authProxyConfigId!;
    const organizationId = emu.info.organizationId;
    const r = await control({
      organizationId,
      settings: {
        sessionExpirationSeconds: 3600,
        otpLength: 8,
        otpAlphanumeric: true,
        walletKitSettings: { enabledSocialProviders: ["google"], oauthClientIds: { google: "g-client" }, oauthRedirectUrl: "https://app.example/cb" },
      },
    });
    expect(r.json).toMatchObject({ configId });
    expect(await getAuthProxyConfig(configId, emu.proxyUrl)).toMatchObject({
      sessionExpirationSeconds: "3600",
      otpLength: "8",
      otpAlphanumeric: true,
      oauthClientIds: { google: "g-client" },
      oauthRedirectUrl: "https://app.example/cb",
      enabledProviders: ["email", "sms", "passkey", "wallet", "google"],
    });
    const short = await control({ organizationId, settings: { otpLength: 5 } });
    expect([short.status, short.json.code]).toEqual([400, 3]);
    expect(short.json.message).toMatch(/otpLength/);
    const wildcard = await control({ organizationId, settings: { allowedOrigins: ["https://*.example.com"] } });
    expect([wildcard.status, wildcard.json.message]).toEqual([400, expect.stringMatching(/exact origin/)]);
    const unknown = await control({ organizationId: "00000000-0000-4000-8000-000000000000", enabled: true });
    expect([unknown.status, unknown.json.code]).toEqual([404, 5]);
  });

  it("the proxy key is sealed at rest (no plain private key in the row)", () => {
    const row = emu.runtime.store.db.prepare("SELECT * FROM auth_proxy_configs").get() as Record<string, string>;
    expect(row.proxy_key_sealed).toMatch(/^s1\./);
    const opened = emu.runtime.store.sealer.open(row.proxy_key_sealed);
    expect(opened).toHaveLength(32);
    expect(JSON.stringify(row)).not.toContain(Buffer.from(opened).toString("hex"));
  });
});
