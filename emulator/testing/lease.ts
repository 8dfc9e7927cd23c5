/**
 * How a test worker gets its file's instance from the pool in the runner's main process
 * (pool.ts): a loopback HTTP endpoint there, `POST /lease {slot, file}`, answers the instance's
 * connection and info after the pool handed it to that file. The global setup starts it and
 * publishes its URL before the workers start (vitest: provided as "turnkeyLease"; jest: in
 * TURNKEY_EMULATOR_LEASE_URL).
 *
 * vitest's worker asks from a setup file, which may wait (`leaseFromBroker`). A jest test asks from
 * `turnkeyEnv()`, which answers at once: `leaseFromBrokerSync` makes the request from a short-lived
 * child process. The test path comes from the worker: the runner's main process does not know
 * which file a worker runs (jest's global setup is never told).
 */
import { execFileSync } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { EmulatorInfo } from "../index.js";
import { connectionOf, type TurnkeyEmulatorConnection } from "./connection.js";
import type { EmulatorPool } from "./pool.js";

export type Leased = TurnkeyEmulatorConnection & { info: EmulatorInfo };
export type LeaseRequest = { slot: string; file?: string };

export type LeaseBroker = { url: string; close(): Promise<void> };

async function bodyOf(req: IncomingMessage): Promise<LeaseRequest> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Partial<LeaseRequest>;
  if (typeof body.slot !== "string" || !body.slot || (body.file !== undefined && typeof body.file !== "string")) throw new Error("a lease names its worker's slot (a string) and may name its test file");
  return { slot: body.slot, file: body.file };
}

/** Serves leases of `pool` on a free loopback port. */
export async function startLeaseBroker(pool: EmulatorPool): Promise<LeaseBroker> {
  const server: Server = createServer((req, res) => {
    if (req.method !== "POST" || req.url !== "/lease") return void res.writeHead(404).end();
    bodyOf(req)
      .then(async ({ slot, file }) => {
        const emu = await pool.lease(slot, file);
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ ...connectionOf(emu.info), info: emu.info } satisfies Leased));
      })
      .catch((e: Error) => res.writeHead(500, { "content-type": "text/plain" }).end(e.message));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  server.unref(); // the runner's teardown closes it; it never keeps a finished run alive
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/lease`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

const refused = (status: number, text: string) => new Error(`the emulator's test pool refused a lease (HTTP ${status}): ${text}`);

/** A lease, from a worker that may wait for it. */
export async function leaseFromBroker(url: string, request: LeaseRequest): Promise<Leased> {
  const res = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(request) });
  if (!res.ok) throw refused(res.status, await res.text());
  return (await res.json()) as Leased;
}

/** The request `leaseFromBrokerSync` runs in its child process: the lease's JSON on stdout, or the refusal on stderr and exit 1. */
const CHILD = `
const [url, body] = process.argv.slice(1);
fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body }).then(async (res) => {
  const text = await res.text();
  if (res.ok) process.stdout.write(text);
  else { process.stderr.write("HTTP " + res.status + ": " + text); process.exitCode = 1; }
}, (e) => { process.stderr.write(String(e && e.cause ? e.cause.code || e.cause : e)); process.exitCode = 1; });
`;

/** A lease, from a test that needs it at once (jest's `turnkeyEnv()`): the request runs in a child process while this one waits. */
export function leaseFromBrokerSync(url: string, request: LeaseRequest): Leased {
  try {
    const out = execFileSync(process.execPath, ["-e", CHILD, url, JSON.stringify(request)], { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"], timeout: 120_000, env: { PATH: process.env.PATH ?? "" } });
    return JSON.parse(out) as Leased;
  } catch (e) {
    const err = e as { stderr?: string; message: string };
    throw new Error(`the emulator's test pool could not lease an instance: ${err.stderr?.trim() || err.message}`, { cause: e });
  }
}
