/**
 * Issue 43 in a real browser: a page of another origin (another port, as a dev server's app at
 * http://localhost:5173 is) reads what the emulator answers when a fault or a limit answers for
 * the service: an injected error's status and body, the real answer after injected latency,
 * the rate limit's 429 with its `ratelimit-*` headers, and the header limit's 431. Without the
 * service's CORS headers on those answers Chromium blocks them and the page's fetch throws
 * "Failed to fetch". (test/control/answer-cors.test.ts checks the headers over plain HTTP.)
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { control } from "../control/support.js";
import { devKey, stampBody, startTestEmulator } from "../support.js";
import { launchChromium, skipBrowserTests } from "./chromium.js";

type Call = { url: string; headers: Record<string, string>; body: string };
type Seen = { status: number; body: string; headers: Record<string, string | null>; ms: number } | { blocked: string };

/** The page's fetch: what it can read of the answer, or the error it got instead. */
const FETCH = async (calls: Call[]): Promise<Seen[]> =>
  Promise.all(
    calls.map(async ({ url, headers, body }) => {
      const started = performance.now();
      try {
        const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
        const read = Object.fromEntries(["ratelimit-limit", "ratelimit-remaining", "retry-after", "content-type"].map((h) => [h, res.headers.get(h)]));
        return { status: res.status, body: await res.text(), headers: read, ms: performance.now() - started };
      } catch (err) {
        return { blocked: String(err) };
      }
    }),
  );

describe.skipIf(skipBrowserTests())("faults and limits seen from a page of another origin in Chromium", () => {
  let emu: RunningEmulator;
  let limited: RunningEmulator;
  let app: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    app = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end("<!doctype html><title>an app on its dev server</title>");
    });
    await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
    // rateLimit 1: the free plan's one request per second.
    [emu, limited, browser] = await Promise.all([startTestEmulator(), startTestEmulator({ rateLimit: 1 }), launchChromium()]);
    page = await browser.newPage();
    await page.goto(`http://localhost:${(app.address() as AddressInfo).port}/`);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await Promise.all([emu?.stop(), limited?.stop(), new Promise<void>((resolve) => app.close(() => resolve()))]);
  });

  /** A stamped whoami of `e`'s organization, as the page would send it. */
  async function whoami(e: RunningEmulator): Promise<Call> {
    const body = JSON.stringify({ organizationId: e.info.organizationId });
    const stamp = await stampBody(body, devKey(e));
    return { url: `${e.url}/public/v1/query/whoami`, headers: { [stamp.stampHeaderName]: stamp.stampHeaderValue }, body };
  }

  it("reads an injected error's status and body", async () => {
    await control(emu, "POST", "/faults", { operation: "whoami", count: 1, error: { code: 13 } });
    const [seen] = await page.evaluate(FETCH, [await whoami(emu)]);
    expect(seen).toMatchObject({ status: 500, headers: { "content-type": expect.stringMatching(/^application\/json/) } });
    expect(JSON.parse((seen as { body: string }).body)).toEqual({ code: 13, message: "injected fault (gRPC code 13)", details: [] });
  }, 60_000);

  it("reads the real answer after injected latency", async () => {
    await control(emu, "POST", "/faults", { operation: "whoami", count: 1, latencyMs: 400 });
    const [seen] = await page.evaluate(FETCH, [await whoami(emu)]);
    expect(seen).toMatchObject({ status: 200 });
    expect((seen as { ms: number }).ms).toBeGreaterThanOrEqual(390);
    expect(JSON.parse((seen as { body: string }).body)).toMatchObject({ organizationId: emu.info.organizationId, userId: emu.info.rootUserId });
  }, 60_000);

  it("reads the rate limit's 429, its message and its ratelimit headers", async () => {
    const call = await whoami(limited);
    const seen = await page.evaluate(FETCH, [call, call, call]);
    expect(seen.filter((s) => "blocked" in s)).toEqual([]);
    const answered = seen as Exclude<Seen, { blocked: string }>[];
    const refused = answered.filter((s) => s.status === 429);
    expect(refused.length).toBeGreaterThanOrEqual(2);
    expect(JSON.parse(refused[0]!.body)).toMatchObject({ code: 8, message: "Too many requests. Please wait and try again in a few seconds" });
    expect(refused[0]!.headers).toMatchObject({ "ratelimit-limit": "1", "ratelimit-remaining": "0" });
  }, 60_000);

  it("reads the 431 of headers over the limit", async () => {
    const call = await whoami(emu);
    const [seen] = await page.evaluate(FETCH, [{ ...call, headers: { ...call.headers, "X-Client-Version": "x".repeat(20 * 1024) } }]);
    expect(seen).toMatchObject({ status: 431 });
    expect(JSON.parse((seen as { body: string }).body)).toMatchObject({ code: 8, message: expect.stringMatching(/^request headers too large/) });
  }, 60_000);
});
