/**
 * One auth-proxy request reads its configuration once: the CORS decision (made before anything
 * answers) and the admission share it, as @turnkey/core's client calls it from a page's origin.
 */
import { describe, expect, it, vi } from "vitest";
import { useTestEmulator } from "../use-test-emulator.js";
import { proxyClient, proxyPost } from "./support.js";

const emu = useTestEmulator();

describe("the auth proxy's configuration", () => {
  it("is read once per request, for its CORS and its admission", async () => {
    const configs = emu.runtime.store.authProxyConfigs;
    const read = vi.spyOn(configs, "byConfigId");
    try {
      await proxyClient(emu).proxyGetWalletKitConfig({});
      expect(read).toHaveBeenCalledTimes(1);
      read.mockClear();
      const answer = await proxyPost(emu, "/v1/wallet_kit_config", "{}", { "x-auth-proxy-config-id": emu.info.authProxyConfigId!, origin: "http://localhost:5173" });
      expect(answer.status).toBe(200);
      expect(answer.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
      expect(read).toHaveBeenCalledTimes(1);
    } finally {
      read.mockRestore();
    }
  });

  it("an unknown configuration is still refused with its own error, readable from the page", async () => {
    const answer = await proxyPost(emu, "/v1/wallet_kit_config", "{}", { "x-auth-proxy-config-id": "no-such-config", origin: "http://localhost:5173" });
    expect(answer.status).toBe(404);
    expect(answer.json.message).toBe("auth proxy config not found: no-such-config");
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
  });
});
