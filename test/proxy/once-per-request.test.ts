/**
 * One auth-proxy request, as @turnkey/core's client or a page sends it: its configuration is
 * read once (the CORS decision, made before anything answers, and the admission share it), and
 * it has one instant (the request log's time is the forwarded activity's createdAt).
 */
import { describe, expect, it, vi } from "vitest";
import { sdkClient, timestampMs } from "../support.js";
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
    expect(answer.json.message).toBe('auth proxy config not found: "no-such-config"');
    expect(answer.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    // A header is not bounded as a body field is: a long one is quoted cut, with its length.
    const long = await proxyPost(emu, "/v1/wallet_kit_config", "{}", { "x-auth-proxy-config-id": "x".repeat(5000) });
    expect([long.status, long.json.message]).toEqual([404, `auth proxy config not found: "${"x".repeat(200)}"…(5000 characters)`]);
  });

  it("has one instant: the log's time is the time of the activity it forwards", async () => {
    const { otpId } = await proxyClient(emu).proxyInitOtp({ otpType: "OTP_TYPE_EMAIL", contact: "once@example.com" });
    const { activities } = await sdkClient(emu).getActivities({ filterByType: ["ACTIVITY_TYPE_INIT_OTP_V3"] });
    const activity = activities.find((a) => a.result?.initOtpResultV2?.otpId === otpId)!;
    const logged = (await (await fetch(`${emu.url}/emulator/v1/requests?path=otp_init`)).json()).requests.at(-1);
    expect(logged).toMatchObject({ path: "/v1/otp_init", status: 200 });
    expect(Date.parse(logged.at)).toBe(timestampMs(activity.createdAt));
  });
});
