/**
 * Fault injection end to end: @turnkey/sdk-server surfaces an injected error, a dropped
 * connection and injected latency; the harness's HTTP client retries an injected 429 with
 * its backoff (virtual clock: no sleeping); faults are listed, cleared and reset; the
 * optional rate limits answer as tkhq/docs `reference/faq.mdx` gives them (its words are the
 * literals below): 10 requests per second per organization, a plan's limit for a tree of
 * organizations, and the separate 10 on the broadcast and balance endpoints.
 */
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { HttpClient } from "../../contracts/harness/http.js";
import { devKey, rawPost, sdkClient, startTestEmulator, stampBody, submitBody } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { control, violatedField } from "./support.js";

const emu = useTestEmulator();
let signWith: string;

beforeAll(async () => {
  const { accounts } = await sdkClient(emu).getWalletAccounts({ walletId: emu.info.walletId! });
  signWith = accounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_ETHEREUM")!.address;
});

const sign = (e = emu) =>
  sdkClient(e).signRawPayload({ signWith, payload: `0x${"ab".repeat(32)}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
const activityCount = async () => (await sdkClient(emu).getActivities({ organizationId: emu.info.organizationId })).activities.length;

describe("faults", () => {
  it("makes sdk-server's signRawPayload throw the injected error for the next call only, writing nothing", async () => {
    const added = await control(emu, "POST", "/faults", { operation: "sign_raw_payload", count: 1, error: { code: 14, message: "signer unavailable (injected)" } });
    expect(added.status).toBe(200);
    const before = await activityCount();
    const err = await sign().then(
      () => null,
      (e: unknown) => e as Error & { code?: number },
    );
    expect(err?.message).toContain("signer unavailable (injected)");
    expect(err?.code).toBe(14);
    expect(await activityCount()).toBe(before);
    expect((await sign()).r).toMatch(/^[0-9a-f]{64}$/);
    expect((await control(emu, "GET", "/faults")).json.faults).toEqual([]);
  });

  it("answers the gRPC code's HTTP status with an rpcStatus body", async () => {
    await control(emu, "POST", "/faults", { operation: "/public/v1/query/whoami", count: 1, error: { code: 7 } });
    const r = await rawPost(emu, "/public/v1/query/whoami", JSON.stringify({ organizationId: emu.info.organizationId }));
    expect(r.status).toBe(403);
    expect(r.json).toEqual({ code: 7, message: "injected fault (gRPC code 7)", details: [] });
  });

  it("drops the connection: the client sees it reset", async () => {
    await control(emu, "POST", "/faults", { operation: "sign_raw_payload", count: 1, drop: true });
    const err = await sign().then(
      () => null,
      (e: unknown) => e as Error & { cause?: { code?: string; message?: string } },
    );
    expect(err).not.toBeNull();
    expect(`${err!.message} ${err!.cause?.code ?? ""} ${err!.cause?.message ?? ""}`).toMatch(/fetch failed|ECONNRESET|other side closed|socket hang up|terminated/i);
    expect((await sign()).r).toMatch(/^[0-9a-f]{64}$/);
  });

  it("adds latency: the delayed request completes after an undelayed one sent later", async () => {
    await control(emu, "POST", "/faults", { operation: "sign_raw_payload", count: 1, latencyMs: 1500 });
    const order: string[] = [];
    const slow = sign().then((r) => {
      order.push("delayed");
      return r;
    });
    await new Promise((r) => setTimeout(r, 50));
    const fast = sdkClient(emu)
      .getWhoami({ organizationId: emu.info.organizationId })
      .then(() => order.push("undelayed"));
    const [signed] = await Promise.all([slow, fast]);
    expect(signed.r).toMatch(/^[0-9a-f]{64}$/);
    expect(order).toEqual(["undelayed", "delayed"]);
  });

  it("answers 429 with Retry-After, which the harness's HTTP client retries with its backoff", async () => {
    await control(emu, "POST", "/faults", { operation: "sign_raw_payload", count: 2, status429: { retryAfterSeconds: 3 } });
    const slept: number[] = [];
    let t = 0;
    const client = new HttpClient({ requestsPerSecond: 0, maxRetries: 5 }, { now: () => t, sleep: async (ms) => void slept.push((t += ms) && ms) });
    const body = submitBody(emu, "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith, payload: `0x${"cd".repeat(32)}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    const r = await client.post(`${emu.url}/public/v1/submit/sign_raw_payload`, body, { key: devKey(emu) });
    expect(r.status).toBe(200);
    expect(r.retries).toBe(2);
    expect(slept).toEqual([3000, 3000]);
  });

  it("lists, deletes one, clears all, and a reset clears them too", async () => {
    const a = (await control(emu, "POST", "/faults", { operation: "whoami", forMs: 60_000, latencyMs: 1 })).json.id;
    const b = (await control(emu, "POST", "/faults", { operation: "list_wallets", error: { code: 13 } })).json.id;
    const listed = (await control(emu, "GET", "/faults")).json.faults;
    expect(listed.map((f: { id: string }) => f.id)).toEqual([a, b]);
    expect(listed[0]).toMatchObject({ operation: "whoami", latencyMs: 1, remaining: null });
    expect((await control(emu, "DELETE", `/faults/${a}`)).status).toBe(200);
    expect((await control(emu, "DELETE", `/faults/${a}`)).json).toMatchObject({ code: 5 });
    expect((await control(emu, "DELETE", "/faults")).json).toEqual({ cleared: 1 });
    await control(emu, "POST", "/faults", { operation: "list_wallets", error: { code: 13 } });
    await control(emu, "POST", "/reset");
    expect((await control(emu, "GET", "/faults")).json.faults).toEqual([]);
    expect((await sdkClient(emu).getWallets({ organizationId: emu.info.organizationId })).wallets.length).toBeGreaterThan(0);
  });

  it("refuses a malformed fault with a 400 naming the field", async () => {
    for (const [body, field] of [
      [{ operation: "sign_raw_payload", error: { code: 99 } }, "error.code"],
      [{ operation: "not_an_operation", drop: true }, "operation"],
      [{ operation: "sign_raw_payload", drop: true, count: -1 }, "count"],
      [{ operation: "sign_raw_payload" }, "error"],
    ] as const) {
      const r = await control(emu, "POST", "/faults", body);
      expect(r.status).toBe(400);
      expect(r.json.code).toBe(3);
      expect(violatedField(r.json)).toBe(field);
    }
    expect((await control(emu, "GET", "/faults")).json.faults).toEqual([]);
  });
});

describe("rate limit (rateLimit option / --rate-limit)", () => {
  it("sets the ratelimit headers and answers the service's 429 past 10 requests a second per organization", async () => {
    const limited = await startTestEmulator({ rateLimit: true });
    try {
      const body = JSON.stringify({ organizationId: limited.info.organizationId });
      const stamp = await stampBody(body, devKey(limited));
      const results = await Promise.all(
        Array.from({ length: 25 }, () =>
          fetch(`${limited.url}/public/v1/query/whoami`, { method: "POST", headers: { "content-type": "application/json", [stamp.stampHeaderName]: stamp.stampHeaderValue }, body }),
        ),
      );
      const ok = results.find((r) => r.status === 200)!;
      expect(ok.headers.get("ratelimit-limit")).toBe("10");
      expect(Number(ok.headers.get("ratelimit-remaining"))).toBeLessThan(10);
      const refused = results.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(await refused[0]!.json()).toMatchObject({ code: 8, message: "Too many requests. Please wait and try again in a few seconds" });
      expect(refused[0]!.headers.get("ratelimit-remaining")).toBe("0");
    } finally {
      await limited.stop();
    }
    // Without the option there is no limit and no header.
    const r = await fetch(`${emu.url}/public/v1/query/whoami`, { method: "POST", body: "{}" });
    expect(r.headers.get("ratelimit-limit")).toBeNull();
  });
});

/** The FAQ's answer past a limit. */
const FAQ_MESSAGE = "Too many requests. Please wait and try again in a few seconds";

/** Unstamped POSTs naming `organizationId`, all at once: the limits count them before the stamp is checked (they answer 401 when let through). */
const burst = (e: RunningEmulator, calls: [path: string, organizationId: string][]) =>
  Promise.all(calls.map(([path, organizationId]) => fetch(e.url + path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ organizationId }) })));

const limitHeaders = (r: Response) => [r.status, r.headers.get("ratelimit-limit"), r.headers.get("ratelimit-remaining")];

/** Waits out the current one-second windows (they run on the host's clock). */
const nextWindow = () => sleep(1100);

describe("a plan's rate limit (rateLimit: N / --rate-limit N)", () => {
  const limited = useTestEmulator({ rateLimit: 1 });

  it("the free plan's 1 request per second: the second in a second answers 429 with the FAQ's message and headers", async () => {
    await nextWindow();
    const org = limited.info.organizationId;
    const [first, second] = await burst(limited, [
      ["/public/v1/query/whoami", org],
      ["/public/v1/query/whoami", org],
    ]);
    expect(limitHeaders(first!)).toEqual([401, "1", "0"]);
    expect(limitHeaders(second!)).toEqual([429, "1", "0"]);
    expect(await second!.json()).toEqual({ code: 8, message: FAQ_MESSAGE, details: [expect.objectContaining({ turnkeyErrorCode: "RATE_LIMIT_EXCEEDED" })] });
    for (const h of ["x-rate-limit-request-remote-addr", "x-rate-limit-request-forwarded-for"]) expect(second!.headers.has(h), h).toBe(true);
    await nextWindow();
    expect((await burst(limited, [["/public/v1/query/whoami", org]]))[0]!.status).toBe(401);
  });

  it("a sub-organization's requests count against its parent's plan", async () => {
    await nextWindow();
    const { subOrganizationId } = await sdkClient(limited).createSubOrganization({
      subOrganizationName: "rate-limited child",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "child", userEmail: "rate-child@example.com", apiKeys: [], authenticators: [], oauthProviders: [] }],
    });
    await nextWindow();
    const answers = await burst(limited, [
      ["/public/v1/query/whoami", limited.info.organizationId],
      ["/public/v1/query/whoami", subOrganizationId],
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([401, 429]);
  });

  it("eth_send_transaction, sol_send_transaction and get_wallet_address_balances: a separate 10 per second, apart from the plan's", async () => {
    await nextWindow();
    const org = limited.info.organizationId;
    const paths = ["/public/v1/submit/eth_send_transaction", "/public/v1/submit/sol_send_transaction", "/public/v1/query/get_wallet_address_balances"];
    const answers = await burst(
      limited,
      Array.from({ length: 12 }, (_, i) => [paths[i % 3]!, org] as [string, string]),
    );
    expect(answers.filter((r) => r.status === 429)).toHaveLength(2);
    expect(answers.filter((r) => r.status !== 429).map((r) => r.headers.get("ratelimit-limit"))).toEqual(Array(10).fill("10"));
    // The plan's window is untouched: one ordinary request still fits in this second, not two.
    const [first, second] = await burst(limited, [
      ["/public/v1/query/whoami", org],
      ["/public/v1/query/whoami", org],
    ]);
    expect([first!.status, second!.status]).toEqual([401, 429]);
  });
});
