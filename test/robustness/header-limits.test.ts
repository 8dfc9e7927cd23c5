/**
 * Requests Node's HTTP parser refuses, over a raw socket: headers over its 16 KiB limit answer
 * 431 with the service's JSON error shape and close the connection; other malformed requests
 * keep Node's own answer (400, connection closed).
 */
import { describe, expect, it } from "vitest";
import { exchange as rawExchange, parseAnswer } from "../raw-http.js";
import { useTestEmulator } from "../use-test-emulator.js";

const emu = useTestEmulator();

const exchange = (request: string) => rawExchange(emu.url, request);
const parse = parseAnswer;

describe("requests the HTTP parser refuses", () => {
  it("a 20 KiB header answers 431 with {code, message, details} as JSON and closes the connection", async () => {
    const raw = await exchange(`GET /public/v1/query/whoami HTTP/1.1\r\nHost: ${new URL(emu.url).host}\r\nX-Big: ${"a".repeat(20 * 1024)}\r\n\r\n`);
    const answer = parse(raw);
    expect(answer.status).toBe(431);
    expect(answer.headers["content-type"]).toBe("application/json");
    expect(answer.headers["connection"]).toBe("close");
    expect(Number(answer.headers["content-length"])).toBe(Buffer.byteLength(answer.body));
    const json = JSON.parse(answer.body) as { code: number; message: string; details: { "@type": string }[] };
    expect(Object.keys(json).sort()).toEqual(["code", "details", "message"]);
    expect(json.code).toBe(8); // RESOURCE_EXHAUSTED, as a body over its limit (413)
    expect(json.message).toMatch(/request headers too large: the limit is 16384 bytes/);
    expect(json.details.map((d) => d["@type"])).toContain("type.googleapis.com/google.rpc.BadRequest");
  });

  it("many headers together over the limit answer the same way", async () => {
    const headers = Array.from({ length: 400 }, (_, i) => `X-H${i}: ${"b".repeat(60)}\r\n`).join("");
    const answer = parse(await exchange(`GET /emulator/v1/info HTTP/1.1\r\nHost: ${new URL(emu.url).host}\r\n${headers}\r\n`));
    expect([answer.status, JSON.parse(answer.body).code]).toEqual([431, 8]);
  });

  it("a malformed request line keeps Node's answer: 400, no body, connection closed", async () => {
    const answer = parse(await exchange("NOT A REQUEST\r\n\r\n"));
    expect(answer.status).toBe(400);
    expect(answer.headers["connection"]).toBe("close");
    expect(answer.body).toBe("");
  });

  it("a request under the limit is served as usual", async () => {
    const answer = parse(await exchange(`GET /emulator/v1/changes HTTP/1.1\r\nHost: ${new URL(emu.url).host}\r\nX-Ok: ${"c".repeat(8 * 1024)}\r\nConnection: close\r\n\r\n`));
    expect(answer.status).toBe(200);
  });
});
