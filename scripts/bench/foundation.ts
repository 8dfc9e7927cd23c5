/**
 * Foundation benchmark (`npm run bench -- foundation`): start-to-ready, stamped whoami throughput and
 * latency on one connection and with 16 in flight, and RSS after start. Every figure is
 * printed next to a baseline measured in the same run:
 *   - a bare node:http server answering the same JSON (the ceiling for any HTTP service here),
 *   - raw P-256 stamp verification with node:crypto (the floor cost of authentication).
 */
import http from "node:http";
import { spawn } from "node:child_process";
import { createVerify } from "node:crypto";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { startEmulator } from "../../emulator/index.js";
import { load, type LoadResult } from "./http.js";

const N = Number(process.env.BENCH_REQUESTS ?? 3000);
const fmt = (n: number, d = 1) => n.toFixed(d);

async function bareServer(): Promise<{ url: string; close(): void }> {
  const payload = JSON.stringify({ organizationId: "x", organizationName: "y", userId: "z", username: "w" });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(payload));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}/`, close: () => server.close() };
}

async function cliStartToReady(): Promise<{ ms: number; rssMb: number }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, ["bin/emulator.js", "start", "--port", "0"], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (d) => {
      out += d;
      const m = /Coordinator API\s+(\S+)/.exec(out);
      if (m && out.includes("API private key")) resolve(m[1]!);
    });
    child.once("exit", (c) => reject(new Error(`CLI exited ${c} (is it built? npm run build): ${out}`)));
  });
  const ms = performance.now() - t0;
  const health = await (await fetch(`${url}/emulator/v1/health`)).json();
  child.kill("SIGTERM");
  return { ms, rssMb: health.rssBytes / 2 ** 20 };
}

function row(name: string, r: LoadResult, base?: LoadResult): string {
  const ratio = base ? `  (${fmt(r.rps / base.rps, 2)}x of bare HTTP)` : "";
  return `${name.padEnd(34)} ${fmt(r.rps, 0).padStart(7)} req/s  p50 ${fmt(r.p50, 2)} ms  p99 ${fmt(r.p99, 2)} ms  errors ${r.errors}${ratio}`;
}

export async function benchFoundation(): Promise<void> {
  console.log(`# foundation benchmark (${N} requests per run, node ${process.version})\n`);

  // Start-to-ready: in-process (startEmulator) and as a fresh CLI process.
  const inProc: number[] = [];
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    const e = await startEmulator({ port: 0, validateResponses: false });
    inProc.push(performance.now() - t0);
    await e.stop();
  }
  inProc.sort((a, b) => a - b);
  console.log(`start-to-ready, startEmulator()      median ${fmt(inProc[2]!)} ms (5 runs)`);
  try {
    const cli = await cliStartToReady();
    console.log(`start-to-ready, CLI process          ${fmt(cli.ms)} ms (node boot included)`);
    console.log(`RSS after start, CLI process         ${fmt(cli.rssMb)} MiB`);
  } catch (e) {
    console.log(`CLI start skipped: ${(e as Error).message.split("\n")[0]}`);
  }

  const emu = await startEmulator({ port: 0, validateResponses: false });
  const body = JSON.stringify({ organizationId: emu.info.organizationId });
  const stamper = new ApiKeyStamper({ apiPublicKey: emu.info.apiPublicKey!, apiPrivateKey: emu.info.apiPrivateKey! });
  const stamp = await stamper.stamp(body);
  const headers = { [stamp.stampHeaderName]: stamp.stampHeaderValue };
  const whoami = `${emu.url}/public/v1/query/whoami`;

  // Raw verification baseline: the same stamp checked with node:crypto alone.
  const sig = Buffer.from(JSON.parse(Buffer.from(stamp.stampHeaderValue, "base64url").toString()).signature, "hex");
  const { publicKeyObject } = await import("../../emulator/core/auth/public-keys.js");
  const key = publicKeyObject("p256", emu.info.apiPublicKey!)!;
  const V = 5000;
  const tv = performance.now();
  for (let i = 0; i < V; i++) createVerify("sha256").update(body).verify(key, sig);
  const verifyUs = ((performance.now() - tv) * 1000) / V;
  console.log(`raw P-256 stamp verify (node:crypto) ${fmt(verifyUs, 1)} us/op = ${fmt(1e6 / verifyUs, 0)} ops/s per core\n`);

  const bare = await bareServer();
  await load(whoami, () => ({ body, headers }), 300, 4); // warm-up
  await load(bare.url, () => ({ body, headers }), 300, 4);
  const bare1 = await load(bare.url, () => ({ body, headers }), N, 1);
  const emu1 = await load(whoami, () => ({ body, headers }), N, 1);
  const bare16 = await load(bare.url, () => ({ body, headers }), N, 16);
  const emu16 = await load(whoami, () => ({ body, headers }), N, 16);
  console.log(row("bare node:http, 1 connection", bare1));
  console.log(row("stamped whoami, 1 connection", emu1, bare1));
  console.log(row("bare node:http, 16 in flight", bare16));
  console.log(row("stamped whoami, 16 in flight", emu16, bare16));
  const perReqUs = 1e6 / emu1.rps;
  console.log(`\nstamp verification share of one sequential whoami: ${fmt((100 * verifyUs) / perReqUs, 0)}%`);
  bare.close();
  await emu.stop();
}

