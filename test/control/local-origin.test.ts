/**
 * The control API, the UI and the frames answer only the emulator's own origin (issue 28):
 * forged Host headers (DNS rebinding), other origins and CORS-simple bodies are refused and
 * change nothing; the coordinator, the auth proxy and the chains' JSON-RPC keep answering
 * other origins as the service and Anvil do.
 */
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { startTestEmulator } from "../support.js";

type Raw = { status: number; headers: Record<string, string | string[] | undefined>; text: string };

/** One request with exactly these headers (fetch would not send a Host of our choosing). */
function raw(emu: RunningEmulator, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Raw> {
  const url = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers: { ...headers, ...(body !== undefined ? { "content-length": String(Buffer.byteLength(body)) } : {}) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, text: Buffer.concat(chunks).toString("utf8") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

let emu: RunningEmulator;
let port: string;
const DAY = 86_400_000;

beforeAll(async () => {
  emu = await startTestEmulator({ allowHosts: ["emulator", ".dev.test"] });
  port = new URL(emu.url).port;
  // A mark a reset would undo: the clock advanced by a day.
  const res = await fetch(`${emu.url}/emulator/v1/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advanceMs: DAY }) });
  expect(res.status).toBe(200);
});
afterAll(() => emu.stop());

async function offsetMs(): Promise<number> {
  return ((await (await fetch(`${emu.url}/emulator/v1/clock`)).json()) as { offsetMs: number }).offsetMs;
}

const GUARDED = ["/emulator/v1/state", "/emulator/v1/info", "/emulator/v1/mailbox", "/emulator/ui/", "/emulator/frames/export", "/emulator/v1/webhooks/deliveries"];

describe("Host header", () => {
  it.each(["evil.example", "localhost.evil.example", "rebind.test", "emulator.evil"])("a forged Host %s reads nothing and resets nothing", async (name) => {
    for (const path of GUARDED) {
      const res = await raw(emu, "GET", path, { host: `${name}:${port}` });
      expect(res.status, path).toBe(403);
      const body = JSON.parse(res.text) as { code: number; message: string; details: unknown[] };
      expect(body.code).toBe(7);
      expect(body.message).toContain("host not allowed");
      expect(res.text).not.toContain(emu.info.apiPrivateKey!);
    }
    const reset = await raw(emu, "POST", "/emulator/v1/reset", { host: `${name}:${port}`, "content-type": "application/json" }, "{}");
    expect(reset.status).toBe(403);
    expect(await offsetMs()).toBe(DAY);
  });

  it("answers loopback names, IP addresses and the allowed names", async () => {
    for (const host of [`127.0.0.1:${port}`, `localhost:${port}`, `app.localhost:${port}`, `[::1]:${port}`, `192.168.1.20:${port}`, `emulator:${port}`, `api.dev.test:${port}`, "localhost"]) {
      const res = await raw(emu, "GET", "/emulator/v1/info", { host });
      expect(res.status, host).toBe(200);
    }
  });

  it("leaves the coordinator, the auth proxy and the OpenAPI document to any Host (the SDKs of a compose network)", async () => {
    const whoami = await raw(emu, "POST", "/public/v1/query/whoami", { host: `evil.example:${port}`, "content-type": "application/json" }, "{}");
    expect(whoami.status).toBe(401); // unstamped: the service's answer, not the guard's
    expect((await raw(emu, "GET", "/openapi.json", { host: `evil.example:${port}` })).status).toBe(200);
  });
});

describe("Origin", () => {
  it("refuses another origin on every guarded route, with no CORS header, and its preflight", async () => {
    for (const origin of ["https://evil.example", `http://127.0.0.1:${Number(port) + 1}`, "null", `http://localhost:${port}`]) {
      for (const path of GUARDED) {
        const res = await raw(emu, "GET", path, { host: `127.0.0.1:${port}`, origin });
        expect(res.status, `${origin} ${path}`).toBe(403);
        expect(res.headers["access-control-allow-origin"]).toBeUndefined();
      }
      const preflight = await raw(emu, "OPTIONS", "/emulator/v1/reset", { host: `127.0.0.1:${port}`, origin, "access-control-request-method": "POST", "access-control-request-headers": "content-type" });
      expect(preflight.status).toBe(403);
      expect(preflight.headers["access-control-allow-origin"]).toBeUndefined();
      const reset = await raw(emu, "POST", "/emulator/v1/reset", { host: `127.0.0.1:${port}`, origin });
      expect(reset.status).toBe(403);
    }
    expect(await offsetMs()).toBe(DAY);
  });

  it("takes the emulator's own origin (the UI's writes)", async () => {
    const res = await raw(emu, "POST", "/emulator/v1/clock", { host: `localhost:${port}`, origin: `http://localhost:${port}`, "content-type": "application/json" }, JSON.stringify({ advanceMs: 0 }));
    expect(res.status).toBe(200);
  });

  it("keeps the service's CORS on the coordinator and Anvil's on the chains' JSON-RPC", async () => {
    const origin = "https://app.example";
    const coordinator = await raw(emu, "OPTIONS", "/public/v1/query/whoami", { origin, "access-control-request-method": "POST" });
    expect(coordinator.headers["access-control-allow-origin"]).toBe(origin);
    const rpc = await raw(emu, "POST", "/emulator/v1/chains/eip155:31337/rpc", { origin, "content-type": "application/json" }, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] }));
    expect(rpc.headers["access-control-allow-origin"]).toBe(origin);
    const jwks = await raw(emu, "GET", "/emulator/v1/oidc/jwks", { origin });
    expect(jwks.status).toBe(200);
    expect(jwks.headers["access-control-allow-origin"]).toBe(origin);
  });
});

describe("bodies a browser sends without a preflight", () => {
  it.each([
    ["text/plain", "{}"],
    ["text/plain;charset=UTF-8", "{}"],
    ["application/x-www-form-urlencoded", "a=1"],
    ["multipart/form-data; boundary=x", "--x--"],
    ["", "{}"],
  ])("refuses %j on a state-changing route (415), changing nothing", async (type, body) => {
    const headers: Record<string, string> = { host: `127.0.0.1:${port}` };
    if (type) headers["content-type"] = type;
    for (const path of ["/emulator/v1/reset", "/emulator/v1/clock", "/emulator/v1/faults"]) {
      const res = await raw(emu, "POST", path, headers, body);
      expect(res.status, path).toBe(415);
      expect((JSON.parse(res.text) as { code: number }).code).toBe(3);
    }
    expect(await offsetMs()).toBe(DAY);
  });

  it("takes JSON, a bodiless POST and the OIDC token endpoint's form", async () => {
    const faults = await raw(emu, "DELETE", "/emulator/v1/faults", { host: `127.0.0.1:${port}` });
    expect(faults.status).toBe(200);
    const form = await raw(emu, "POST", "/emulator/v1/oidc/token", { host: `127.0.0.1:${port}`, "content-type": "application/x-www-form-urlencoded" }, "sub=alice&aud=app");
    expect(form.status).toBe(200);
  });
});
