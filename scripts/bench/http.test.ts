import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { load } from "./http.js";

// The benchmarks' raw-socket client against node:http's own server, answering in each of the
// ways a response can be framed (Content-Length, chunked, no body) and with other statuses.
describe("bench load()", () => {
  const seen: { path: string; body: string; stamp: string | undefined }[] = [];
  let base = "";
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString("utf8")));
    req.on("end", () => {
      seen.push({ path: req.url!, body, stamp: req.headers["x-stamp"] as string | undefined });
      if (req.url === "/length") res.end(JSON.stringify({ ok: body.length }));
      else if (req.url === "/chunked") {
        res.write("first part, ");
        setImmediate(() => res.end("and the last"));
      } else if (req.url === "/empty") res.writeHead(204).end();
      else if (req.url === "/missing") res.writeHead(404, { "content-type": "application/json" }).end('{"code":5}');
      else req.socket.destroy();
    });
  });

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each(["raw", "node:http"] as const)("sends every request with its body and headers, and waits for each whole answer (%s client)", async (client) => {
    seen.length = 0;
    let i = 0;
    const r = await load(`${base}/length`, () => ({ body: JSON.stringify({ n: i, text: "é".repeat(i++) }), headers: { "X-Stamp": `s${i}` } }), 40, 4, client);
    expect(r).toMatchObject({ requests: 40, errors: 0 });
    expect(seen).toHaveLength(40);
    expect(seen.map((s) => JSON.parse(s.body).n).sort((a, b) => a - b)).toEqual([...Array(40).keys()]);
    expect(seen.every((s) => s.stamp?.startsWith("s") && JSON.parse(s.body).text.length === JSON.parse(s.body).n)).toBe(true);
    expect(r.clientCpuUs).toBeGreaterThan(0);
  });

  it("reads chunked and empty answers to their end, on kept-alive connections", async () => {
    for (const path of ["/chunked", "/empty"]) {
      const r = await load(`${base}${path}`, () => ({ body: "{}", headers: {} }), 30, 3);
      expect(r.errors).toBe(path === "/empty" ? 30 : 0); // a 204 is not a 200
      expect(r.requests).toBe(30);
    }
  });

  it("counts answers other than 200 as errors", async () => {
    const r = await load(`${base}/missing`, () => ({ body: "{}", headers: {} }), 10, 2);
    expect(r.errors).toBe(10);
  });

  it("fails when the server drops the connection", async () => {
    await expect(load(`${base}/drop`, () => ({ body: "{}", headers: {} }), 2, 1)).rejects.toThrow(/closed the connection/);
  });
});
