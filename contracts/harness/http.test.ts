import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicKey, verify } from "node:crypto";
import { HttpClient, type Clock } from "./http.js";
import { newApiKeyPair } from "./keys.js";

let server: Server;
let url: string;
let hits: { headers: Record<string, unknown>; body: string }[] = [];
let tooMany = 0;

/** A virtual clock: time moves only when the test says so; every wait is recorded and returns at once. */
function virtualClock(): Clock & { t: number; sleeps: number[] } {
  const clock = {
    t: 1_000_000,
    sleeps: [] as number[],
    now: () => clock.t,
    sleep: async (ms: number) => void clock.sleeps.push(ms),
  };
  return clock;
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      hits.push({ headers: req.headers, body });
      if (tooMany > 0) {
        tooMany--;
        res.writeHead(429, { "content-type": "application/json" }).end(JSON.stringify({ code: 8, message: "slow down" }));
        return;
      }
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ok: true }));
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe("target HTTP client", () => {
  it("stamps the exact body with the official stamper (verifiable P-256 signature)", async () => {
    hits = [];
    const key = newApiKeyPair();
    const body = JSON.stringify({ hello: "world" });
    await new HttpClient({ requestsPerSecond: 0 }).post(url, body, { key });
    const stamp = JSON.parse(Buffer.from(String(hits[0]!.headers["x-stamp"]), "base64url").toString());
    expect(stamp).toMatchObject({ publicKey: key.publicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256" });
    // Independent check with OpenSSL: the public key as an SPKI point, the signature DER.
    const spki = Buffer.concat([Buffer.from("3039301306072a8648ce3d020106082a8648ce3d030107032200", "hex"), Buffer.from(key.publicKey, "hex")]);
    const pub = createPublicKey({ key: spki, format: "der", type: "spki" });
    expect(verify("sha256", Buffer.from(hits[0]!.body), pub, Buffer.from(stamp.signature, "hex"))).toBe(true);
    expect(verify("sha256", Buffer.from(body + " "), pub, Buffer.from(stamp.signature, "hex"))).toBe(false);
  });

  it("sends no stamp when asked for none", async () => {
    hits = [];
    await new HttpClient({ requestsPerSecond: 0 }).post(url, "{}", { key: null });
    expect(hits[0]!.headers["x-stamp"]).toBeUndefined();
  });

  it("paces requests to the configured rate", async () => {
    hits = [];
    const clock = virtualClock();
    const c = new HttpClient({ requestsPerSecond: 20 }, clock);
    await Promise.all([c.post(url, "{}"), c.post(url, "{}"), c.post(url, "{}"), c.post(url, "{}")]);
    // Four at once at 20/s: the first goes now, the others wait for slots 50 ms apart.
    expect(clock.sleeps).toEqual([50, 100, 150]);
    expect(hits).toHaveLength(4);
    // Once the last slot (t+150) is 40 ms away, the next request waits 40 + 50 ms; long after, none.
    clock.t += 110;
    await c.post(url, "{}");
    expect(clock.sleeps).toEqual([50, 100, 150, 90]);
    clock.t += 10_000;
    await c.post(url, "{}");
    expect(clock.sleeps).toHaveLength(4);
    // Unpaced, nothing waits.
    const free = virtualClock();
    await Promise.all([1, 2, 3].map(() => new HttpClient({ requestsPerSecond: 0 }, free).post(url, "{}")));
    expect(free.sleeps).toEqual([]);
  });

  it("retries 429 with backoff, then gives up after maxRetries", async () => {
    hits = [];
    tooMany = 2;
    const clock = virtualClock();
    const c = new HttpClient({ requestsPerSecond: 0, baseDelayMs: 20, maxRetries: 3 }, clock);
    const ok = await c.post(url, "{}");
    expect(ok).toMatchObject({ status: 200, retries: 2 });
    expect(hits).toHaveLength(3);
    expect(clock.sleeps).toEqual([20, 40]);
    tooMany = 5;
    const giveUp = virtualClock();
    const no = await new HttpClient({ requestsPerSecond: 0, baseDelayMs: 1, maxRetries: 2 }, giveUp).post(url, "{}");
    expect(no).toMatchObject({ status: 429, retries: 2, body: { code: 8 } });
    expect(giveUp.sleeps).toEqual([1, 2]);
    tooMany = 0;
  });
});
