/**
 * Issue 43 over HTTP: every answer on the service's surfaces carries the CORS headers that
 * surface gives a normal answer to the same request, whoever made it: an injected error, an
 * injected 429, injected latency before the real answer, the rate limit's 429, the body limit's
 * 413 and the header limit's 431. A preflight is answered while a fault is armed for every
 * operation, and the fault keeps its count. (test/browser/fault-cors.test.ts: the same from a
 * page in Chromium.)
 */
import { describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { exchange, parseAnswer } from "../raw-http.js";
import { rawPost } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { proxyPost } from "../proxy/support.js";
import { control } from "./support.js";

const ORIGIN = "http://localhost:5173";
const emu = useTestEmulator();

/** The CORS headers a page needs to read an answer from `origin`. */
function expectCors(headers: Headers | Record<string, string>, origin = ORIGIN): void {
  const get = (name: string) => (headers instanceof Headers ? headers.get(name) : (headers[name] ?? null));
  expect(get("access-control-allow-origin")).toBe(origin);
  expect(get("access-control-expose-headers")).toMatch(/ratelimit-limit.*ratelimit-remaining.*Retry-After/);
}

/** The rest of a request whose body is one byte over the 10 MiB limit (the reader answers once it has read it). */
const OVERSIZED = `Content-Type: application/json\r\nContent-Length: ${10 * 1024 * 1024 + 1}\r\nConnection: close\r\n\r\n${"{"}${" ".repeat(10 * 1024 * 1024)}`;

const whoami = (e: RunningEmulator, headers: Record<string, string> = { Origin: ORIGIN }) =>
  fetch(`${e.url}/public/v1/query/whoami`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body: JSON.stringify({ organizationId: e.info.organizationId }) });

describe("the service's CORS on answers made before the service", () => {
  it("an injected error on the coordinator: its status and body, with the CORS headers a 401 on the same path gets", async () => {
    await control(emu, "POST", "/faults", { operation: "whoami", count: 1, error: { code: 13 } });
    const injected = await whoami(emu);
    expect(injected.status).toBe(500);
    expect(await injected.json()).toEqual({ code: 13, message: "injected fault (gRPC code 13)", details: [] });
    expectCors(injected.headers);

    const unauthenticated = await whoami(emu);
    expect(unauthenticated.status).toBe(401);
    const cors = (h: Headers) => {
      const kept: string[] = [];
      h.forEach((value, name) => (name.startsWith("access-control-") || name === "vary") && kept.push(`${name}: ${value}`));
      return kept;
    };
    expect(cors(injected.headers)).toEqual(cors(unauthenticated.headers));
  });

  it("an injected 429 with Retry-After, and injected latency followed by the real answer", async () => {
    await control(emu, "POST", "/faults", { operation: "whoami", count: 1, status429: { retryAfterSeconds: 2 } });
    const limited = await whoami(emu);
    expect([limited.status, limited.headers.get("retry-after")]).toEqual([429, "2"]);
    expect(await limited.json()).toMatchObject({ code: 8, message: "Too many requests. Please wait and try again in a few seconds" });
    expectCors(limited.headers);

    await control(emu, "POST", "/faults", { operation: "whoami", count: 1, latencyMs: 300 });
    const started = performance.now();
    const r = await rawPost(emu, "/public/v1/query/whoami", JSON.stringify({ organizationId: emu.info.organizationId }), { headers: { Origin: ORIGIN } });
    expect(performance.now() - started).toBeGreaterThanOrEqual(290);
    expect([r.status, r.json.organizationId]).toEqual([200, emu.info.organizationId]);
  });

  it("a preflight while a fault is armed for every operation is answered, and the fault keeps its count", async () => {
    await control(emu, "POST", "/faults", { operation: "*", count: 1, error: { code: 14 } });
    for (const path of ["/public/v1/query/whoami", "/public/v1/submit/export_wallet", "/v1/otp_init"]) {
      const preflight = await fetch(emu.url + path, { method: "OPTIONS", headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-stamp" } });
      expect(preflight.status, path).toBe(204);
      expect(preflight.headers.get("access-control-allow-origin"), path).toBe(ORIGIN);
      expect(preflight.headers.get("access-control-allow-headers"), path).toMatch(/X-Stamp/);
    }
    expect((await control(emu, "GET", "/faults")).json.faults).toMatchObject([{ operation: "*", remaining: 1, hits: 0 }]);
    expect((await whoami(emu)).status).toBe(503);
  });

  it("the auth proxy: an injected error carries the configuration's CORS, and none for an origin it refuses", async () => {
    const configId = emu.info.authProxyConfigId!;
    const { store } = emu.runtime;
    const row = store.authProxyConfigs.forOrg(emu.info.organizationId)!;
    store.authProxyConfigs.update(emu.info.organizationId, { settings: { ...row.settings, allowedOrigins: [ORIGIN] } }, Date.now());
    try {
      await control(emu, "POST", "/faults", { operation: "otp_init", count: 2, error: { code: 14, message: "proxy down (injected)" } });
      const body = JSON.stringify({ otpType: "OTP_TYPE_EMAIL", contact: "cors@example.com" });
      const allowed = await proxyPost(emu, "/v1/otp_init", body, { "X-Auth-Proxy-Config-ID": configId, Origin: ORIGIN });
      expect([allowed.status, allowed.json.message]).toEqual([503, "proxy down (injected)"]);
      expectCors(allowed.headers);
      const refused = await proxyPost(emu, "/v1/otp_init", body, { "X-Auth-Proxy-Config-ID": configId, Origin: "https://evil.example" });
      expect(refused.status).toBe(503);
      expect(refused.headers.get("access-control-allow-origin")).toBeNull();
    } finally {
      store.authProxyConfigs.update(emu.info.organizationId, { settings: row.settings }, Date.now());
    }
  });

  it("a body over the limit (413) and headers over the limit (431), on both surfaces; none under /emulator/", async () => {
    const host = new URL(emu.url).host;
    const proxyHeaders = `X-Auth-Proxy-Config-ID: ${emu.info.authProxyConfigId}\r\n`;
    for (const [path, extra] of [
      ["/public/v1/query/whoami", ""],
      ["/v1/otp_init", proxyHeaders],
    ] as const) {
      const tooLong = parseAnswer(await exchange(emu.url, `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${ORIGIN}\r\n${extra}${OVERSIZED}`));
      expect([tooLong.status, JSON.parse(tooLong.body).code], path).toEqual([413, 8]);
      expectCors(tooLong.headers);
      const bigHeaders = parseAnswer(await exchange(emu.url, `POST ${path} HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${ORIGIN}\r\n${extra}X-Stamp: ${"a".repeat(20 * 1024)}\r\n\r\n`));
      expect([bigHeaders.status, JSON.parse(bigHeaders.body).code], path).toEqual([431, 8]);
      expectCors(bigHeaders.headers);
    }
    const local = parseAnswer(await exchange(emu.url, `GET /emulator/v1/info HTTP/1.1\r\nHost: ${host}\r\nOrigin: ${ORIGIN}\r\nX-Big: ${"a".repeat(20 * 1024)}\r\n\r\n`));
    expect(local.status).toBe(431);
    expect(local.headers["access-control-allow-origin"]).toBeUndefined();
  });
});

describe("the service's CORS on the rate limit's answers", () => {
  const limited = useTestEmulator({ rateLimit: true });

  it("its 429 and its headers reach the page: the origin allowed, the ratelimit headers exposed", async () => {
    const answers = await Promise.all(Array.from({ length: 15 }, () => whoami(limited)));
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBeGreaterThan(0);
    expect(await refused[0]!.json()).toMatchObject({ code: 8, message: "Too many requests. Please wait and try again in a few seconds" });
    expect(refused[0]!.headers.get("ratelimit-remaining")).toBe("0");
    expectCors(refused[0]!.headers);
  });

  it("a body over the limit is still its 413, with the CORS headers", async () => {
    const answer = parseAnswer(await exchange(limited.url, `POST /public/v1/query/whoami HTTP/1.1\r\nHost: ${new URL(limited.url).host}\r\nOrigin: ${ORIGIN}\r\n${OVERSIZED}`));
    expect([answer.status, JSON.parse(answer.body).code]).toEqual([413, 8]);
    expectCors(answer.headers);
  });
});
