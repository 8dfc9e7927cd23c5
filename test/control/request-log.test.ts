/**
 * The request log end to end: what @turnkey/sdk-server's calls leave in
 * GET /emulator/v1/requests (newest last, filters), what `log` prints, and that no stamp,
 * signature or full key ever appears in either.
 */
import { describe, expect, it } from "vitest";
import { sdkClient, timestampMs } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { control, violatedField } from "./support.js";

const emu = useTestEmulator({ log: (line) => lines.push(line) });
const lines: string[] = [];

describe("request log", () => {
  it("records each request with organization, caller, status, latency, activity id and error code", async () => {
    const org = emu.info.organizationId;
    const since = (await control(emu, "GET", "/clock")).json.now;
    const client = sdkClient(emu);
    await client.getWhoami({ organizationId: org });
    const { activity } = await client.createWallet({ walletName: "logged", accounts: [] }).then(async (w) => ({ activity: (await client.getActivities({ organizationId: org })).activities.find((a) => a.result?.createWalletResult?.walletId === w.walletId)! }));
    await expect(client.getWallet({ walletId: "00000000-0000-4000-8000-000000000000" })).rejects.toThrow();

    const all = (await control(emu, "GET", `/requests?since=${since}`)).json.requests;
    expect(all.map((r: { path: string }) => r.path)).toEqual([
      "/public/v1/query/whoami",
      "/public/v1/submit/create_wallet",
      "/public/v1/query/list_activities",
      "/public/v1/query/get_wallet",
    ]);
    const [who, create, , missing] = all;
    expect(who).toMatchObject({ method: "POST", organizationId: org, status: 200, activityId: null, errorCode: null, caller: { userId: emu.info.rootUserId } });
    expect(who.caller.key).toBe(`${emu.info.apiPublicKey!.slice(0, 12)}…`);
    expect(typeof who.latencyMs).toBe("number");
    expect(create).toMatchObject({ status: 200, activityId: activity.id, organizationId: org });
    // One instant per request: the log's time is the activity's createdAt, to the millisecond.
    expect(Date.parse(create.at)).toBe(timestampMs(activity.createdAt));
    expect(missing).toMatchObject({ status: 404, errorCode: 5 });
    expect(all.every((r: { seq: number }, i: number) => i === 0 || r.seq > all[i - 1].seq)).toBe(true);

    expect((await control(emu, "GET", `/requests?since=${since}&path=create_wallet`)).json.requests).toHaveLength(1);
    expect((await control(emu, "GET", `/requests?since=${since}&status=4xx`)).json.requests).toEqual([missing]);
    expect((await control(emu, "GET", `/requests?since=${since}&org=not-an-org`)).json.requests).toEqual([]);
    const bad = await control(emu, "GET", "/requests?status=teapot");
    expect(bad.status).toBe(400);
    expect(violatedField(bad.json)).toBe("status");
  });

  it("prints one line per request and leaks no key or stamp", async () => {
    const logged = lines.filter((l) => l.includes("/public/v1/submit/create_wallet"));
    expect(logged.length).toBeGreaterThan(0);
    expect(logged[0]).toMatch(/^\S+Z POST \/public\/v1\/submit\/create_wallet 200 [\d.]+ms org=\S+ user=\S+ activity=\S+$/);
    const everything = JSON.stringify((await control(emu, "GET", "/requests")).json) + lines.join("\n");
    expect(everything).not.toContain(emu.info.apiPublicKey!);
    expect(everything).not.toContain(emu.info.apiPrivateKey!);
    expect(everything).not.toMatch(/signature|x-stamp/i);
    // Control-API calls are not part of the log.
    expect(everything).not.toContain("/emulator/v1/");
  });
});
