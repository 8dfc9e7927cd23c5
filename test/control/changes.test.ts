/**
 * GET /emulator/v1/changes moves when the state does, and only then: reading a state image
 * and a request whose writes are rolled back leave it where it was; a committed write moves it.
 */
import { describe, expect, it } from "vitest";
import { storeCounts } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

const emu = useTestEmulator();

const version = async (): Promise<string> => ((await (await fetch(`${emu.url}/emulator/v1/changes`)).json()) as { version: string }).version;
/** Empties the request log (which the version follows too: the UI's Requests tab shows it). */
const clearRequestLog = async () => expect((await fetch(`${emu.url}/emulator/v1/requests`, { method: "DELETE", headers: { "content-type": "application/json" } })).status).toBe(200);

function signup(userEmail: string): Promise<Response> {
  return fetch(`${emu.proxyUrl}/v1/signup`, {
    method: "POST",
    headers: { "content-type": "application/json", "x-auth-proxy-config-id": emu.info.authProxyConfigId! },
    body: JSON.stringify({ userEmail, apiKeys: [], authenticators: [], oauthProviders: [] }),
  });
}

describe("the change version", () => {
  it("stays put across state image exports", async () => {
    const before = await version();
    for (let i = 0; i < 3; i++) {
      const state = await fetch(`${emu.url}/emulator/v1/state`);
      expect(state.status).toBe(200);
      expect((await state.arrayBuffer()).byteLength).toBeGreaterThan(0);
    }
    expect(await version()).toBe(before);
  });

  it("stays put after a request whose writes roll back; moves after one that commits", async () => {
    await clearRequestLog();
    const before = await version();
    const rows = storeCounts(emu);
    const refused = await signup("not an email");
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { message: string }).message).toMatch(/email/);
    expect(storeCounts(emu)).toEqual(rows); // nothing was written
    await clearRequestLog();
    expect(await version()).toBe(before);

    expect((await signup("changes@example.com")).status).toBe(200);
    await clearRequestLog();
    expect(await version()).not.toBe(before);
  });
});
