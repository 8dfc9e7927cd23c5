import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createPublicKey, verify } from "node:crypto";
import { HttpClient } from "./http.js";
import { newApiKeyPair } from "./keys.js";

let server: Server;
let url: string;
let hits: { at: number; headers: Record<string, unknown>; body: string }[] = [];
let tooMany = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      hits.push({ at: Date.now(), headers: req.headers, body });
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
    const c = new HttpClient({ requestsPerSecond: 20 });
    await Promise.all([c.post(url, "{}"), c.post(url, "{}"), c.post(url, "{}"), c.post(url, "{}")]);
    const span = hits[3]!.at - hits[0]!.at;
    // 3 intervals of 50 ms are scheduled; arrival times at the server jitter by a few ms on a
    // busy machine (unpaced, the four arrive within a few ms of each other).
    expect(span).toBeGreaterThanOrEqual(120);
  });

  it("retries 429 with backoff, then gives up after maxRetries", async () => {
    hits = [];
    tooMany = 2;
    const c = new HttpClient({ requestsPerSecond: 0, baseDelayMs: 20, maxRetries: 3 });
    const ok = await c.post(url, "{}");
    expect(ok).toMatchObject({ status: 200, retries: 2 });
    expect(hits[2]!.at - hits[1]!.at).toBeGreaterThanOrEqual(hits[1]!.at - hits[0]!.at);
    tooMany = 5;
    const no = await new HttpClient({ requestsPerSecond: 0, baseDelayMs: 1, maxRetries: 2 }).post(url, "{}");
    expect(no).toMatchObject({ status: 429, retries: 2, body: { code: 8 } });
    tooMany = 0;
  });
});
