/**
 * Soak: `npm run bench -- soak [--duration <seconds>] [--memory]`. The emulator runs in a child
 * process (so the memory figures are the emulator's alone) on a SQLite file in a temporary
 * directory (`--memory`: `:memory:`, where stored activities count toward RSS). 20
 * sub-organizations are created with create_sub_organization (V8), each with a root user
 * holding an API key; then 50 clients, each stamping with its sub-organization's key, run a
 * mix of operations for the duration (default 60 s): whoami, list_wallets, list_users,
 * get_activity, sign_raw_payload, create_wallet (then delete_wallets), create_users (then
 * delete_users). Reports errors (goal 0), p50/p99 per operation, requests per second, and the
 * child's RSS after setup, at the end of the load, and after the load stops and a full GC
 * (goal: growth under 20%).
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { bytesToHex } from "@noble/hashes/utils.js";
import { Client, ETH_ACCOUNT as ETH, newP256Key as newKey, type Key } from "./client.js";

const SUB_ORGS = 20;
const CLIENTS = 50;
const GROWTH_GOAL = 0.2;

type Info = { url: string; organizationId: string; apiPublicKey: string; apiPrivateKey: string };
type ChildMessage = { kind: "ready"; info: Info } | { kind: "rss"; rss: number; heapUsed: number };

// ---------------------------------------------------------------- child: the emulator itself

if (process.env.SOAK_CHILD === "1") {
  const { startEmulator } = await import("../../emulator/index.js");
  const emu = await startEmulator({ port: 0, db: process.env.SOAK_DB || undefined, validateResponses: false });
  const report = () => {
    const m = process.memoryUsage();
    process.send!({ kind: "rss", rss: m.rss, heapUsed: m.heapUsed } satisfies ChildMessage);
  };
  process.on("message", async (msg: { kind: string }) => {
    if (msg.kind === "rss") report();
    if (msg.kind === "gc") {
      (globalThis as { gc?: () => void }).gc?.();
      await new Promise((r) => setTimeout(r, 200));
      (globalThis as { gc?: () => void }).gc?.();
      report();
    }
    if (msg.kind === "stop") {
      await emu.stop();
      process.exit(0);
    }
  });
  process.send!({ kind: "ready", info: { url: emu.url, organizationId: emu.info.organizationId, apiPublicKey: emu.info.apiPublicKey!, apiPrivateKey: emu.info.apiPrivateKey! } } satisfies ChildMessage);
}

// ---------------------------------------------------------------- parent: setup, load, report


function ask(child: ChildProcess, kind: "rss" | "gc"): Promise<{ rss: number; heapUsed: number }> {
  return new Promise((resolve) => {
    const on = (m: ChildMessage) => {
      if (m.kind !== "rss") return;
      child.off("message", on);
      resolve(m);
    };
    child.on("message", on);
    child.send({ kind });
  });
}

type SubOrg = { id: string; key: Key; address: string; activityIds: string[] };

const COMPLETED = "ACTIVITY_STATUS_COMPLETED";

async function createSubOrgs(parent: Client): Promise<SubOrg[]> {
  const out: SubOrg[] = [];
  for (let i = 0; i < SUB_ORGS; i++) {
    const key = newKey();
    const r = await parent.submit("create_sub_organization", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", {
      subOrganizationName: `soak sub-org ${i}`,
      rootUsers: [{ userName: `soak root ${i}`, apiKeys: [{ apiKeyName: "soak key", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      wallet: { walletName: "soak wallet", accounts: [ETH] },
    });
    const result = r.json?.activity?.result?.createSubOrganizationResultV8;
    if (r.status !== 200 || r.json.activity.status !== COMPLETED || !result) throw new Error(`create_sub_organization failed: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`);
    const org: SubOrg = { id: result.subOrganizationId, key, address: result.wallet.addresses[0], activityIds: [] };
    // get_activity needs an activity of the sub-organization itself (create_sub_organization's is the parent's).
    const own = new Client(parent.base, key, org.id);
    const signed = await own.submit("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: org.address, payload: "00".repeat(32), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    own.close();
    if (signed.status !== 200 || signed.json.activity.status !== COMPLETED) throw new Error(`sign_raw_payload in sub-org failed: ${signed.status} ${JSON.stringify(signed.json).slice(0, 300)}`);
    org.activityIds.push(signed.json.activity.id);
    out.push(org);
  }
  return out;
}

type Stats = Map<string, { latencies: number[]; errors: number }>;

/** One operation of the mix; returns the names and outcomes of the calls it made. */
type Step = (c: Client, org: SubOrg, n: number) => Promise<{ op: string; ok: boolean; ms: number; error?: string }[]>;

async function timed(op: string, call: () => Promise<{ status: number; json: any }>, ok: (json: any) => boolean) {
  const t = performance.now();
  let answer: { status: number; json: any };
  try {
    answer = await call();
  } catch (e) {
    return { op, ok: false, ms: performance.now() - t, error: String(e) };
  }
  const { status, json } = answer;
  const ms = performance.now() - t;
  const good = status === 200 && ok(json);
  return { op, ok: good, ms, json, error: good ? undefined : `${status} ${JSON.stringify(json).slice(0, 200)}` };
}

const completed = (json: any) => json?.activity?.status === COMPLETED;

const MIX: [weight: number, step: Step][] = [
  [3, async (c) => [await timed("whoami", () => c.query("whoami"), (j) => j.organizationId === c.organizationId)]],
  [3, async (c) => [await timed("list_wallets", () => c.query("list_wallets"), (j) => Array.isArray(j.wallets))]],
  [2, async (c) => [await timed("list_users", () => c.query("list_users"), (j) => Array.isArray(j.users))]],
  [3, async (c, org) => [await timed("get_activity", () => c.query("get_activity", { activityId: org.activityIds[org.activityIds.length - 1] }), (j) => typeof j.activity?.id === "string")]],
  [
    4,
    async (c, org, n) => {
      const payload = bytesToHex(new TextEncoder().encode(`soak ${n}`.padEnd(32, ".")).slice(0, 32));
      const r = await timed("sign_raw_payload", () => c.submit("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: org.address, payload, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" }), completed);
      if (r.ok) {
        org.activityIds.push((r as any).json.activity.id);
        org.activityIds.splice(0, org.activityIds.length - 16);
      }
      return [r];
    },
  ],
  [
    1,
    async (c, _org, n) => {
      const made = await timed("create_wallet", () => c.submit("create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", { walletName: `soak ${n}`, accounts: [ETH] }), completed);
      if (!made.ok) return [made];
      const walletId = (made as any).json.activity.result.createWalletResult.walletId;
      return [made, await timed("delete_wallets", () => c.submit("delete_wallets", "ACTIVITY_TYPE_DELETE_WALLETS", { walletIds: [walletId], deleteWithoutExport: true }), completed)];
    },
  ],
  [
    1,
    async (c, _org, n) => {
      const made = await timed(
        "create_users",
        () => c.submit("create_users", "ACTIVITY_TYPE_CREATE_USERS_V4", { users: [{ userName: `soak user ${n}`, apiKeys: [{ apiKeyName: "k", publicKey: newKey().publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] }),
        completed,
      );
      if (!made.ok) return [made];
      const userId = (made as any).json.activity.result.createUsersResult.userIds[0];
      return [made, await timed("delete_users", () => c.submit("delete_users", "ACTIVITY_TYPE_DELETE_USERS", { userIds: [userId] }), completed)];
    },
  ],
];

/** `--duration <s>` from the command line (default 60), `--memory` for an in-memory database. */
export function soakOptions(argv = process.argv): { durationS: number; memory: boolean } {
  const i = argv.indexOf("--duration");
  const durationS = i >= 0 ? Number(argv[i + 1]) : 60;
  if (!(durationS > 0)) throw new Error(`--duration needs a number of seconds, got ${argv[i + 1]}`);
  return { durationS, memory: argv.includes("--memory") };
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const pct = (xs: number[], p: number) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? NaN;

export async function benchSoak(): Promise<void> {
  const { durationS, memory } = soakOptions();
  console.log(`\n# soak: ${CLIENTS} clients over ${SUB_ORGS} sub-organizations for ${durationS} s (emulator in a child process, ${memory ? ":memory:" : "SQLite file"} database)\n`);
  const dir = mkdtempSync(join(tmpdir(), "emulator-soak-"));
  const dbFile = memory ? "" : join(dir, "soak.db");
  const child = fork(fileURLToPath(import.meta.url), [], {
    execArgv: ["--import", "tsx", "--expose-gc"],
    env: { ...process.env, SOAK_CHILD: "1", SOAK_DB: dbFile },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  try {
    const info = await new Promise<Info>((resolve, reject) => {
      child.once("error", reject);
      child.once("exit", (code) => reject(new Error(`emulator child exited with ${code}`)));
      child.on("message", (m: ChildMessage) => m.kind === "ready" && resolve(m.info));
    });
    const boot = await ask(child, "rss");
    const base = info.url;
    const parent = new Client(base, { publicKey: info.apiPublicKey, privateKey: info.apiPrivateKey }, info.organizationId);
    const orgs = await createSubOrgs(parent);
    parent.close();
    const start = await ask(child, "gc");
    console.log(`setup: ${orgs.length} sub-organizations; RSS at boot ${mb(boot.rss)}, after setup ${mb(start.rss)} (heap ${mb(start.heapUsed)})`);

    const stats: Stats = new Map();
    const errorSamples: string[] = [];
    const totalWeight = MIX.reduce((s, [w]) => s + w, 0);
    let seed = 0x50a6;
    const rand = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
    const pick = (): Step => {
      let r = rand() * totalWeight;
      for (const [w, step] of MIX) if ((r -= w) < 0) return step;
      return MIX[0]![1];
    };
    let n = 0;
    const deadline = performance.now() + durationS * 1000;
    const t0 = performance.now();
    const clients = Array.from({ length: CLIENTS }, (_, i) => ({ org: orgs[i % orgs.length]!, client: new Client(base, orgs[i % orgs.length]!.key, orgs[i % orgs.length]!.id) }));
    await Promise.all(
      clients.map(async ({ org, client }) => {
        while (performance.now() < deadline) {
          for (const r of await pick()(client, org, n++)) {
            const s = stats.get(r.op) ?? { latencies: [], errors: 0 };
            stats.set(r.op, s);
            s.latencies.push(r.ms);
            if (!r.ok) {
              s.errors++;
              if (errorSamples.length < 5) errorSamples.push(`${r.op}: ${r.error}`);
            }
          }
        }
        client.close();
      }),
    );
    const seconds = (performance.now() - t0) / 1000;
    const end = await ask(child, "rss");
    await new Promise((r) => setTimeout(r, 1000));
    const after = await ask(child, "gc");

    let requests = 0;
    let errors = 0;
    console.log(`\n${"operation".padEnd(18)}${"requests".padStart(10)}${"errors".padStart(8)}${"p50 ms".padStart(10)}${"p99 ms".padStart(10)}`);
    for (const [op, s] of [...stats].sort(([a], [b]) => a.localeCompare(b))) {
      s.latencies.sort((a, b) => a - b);
      requests += s.latencies.length;
      errors += s.errors;
      console.log(`${op.padEnd(18)}${String(s.latencies.length).padStart(10)}${String(s.errors).padStart(8)}${pct(s.latencies, 0.5).toFixed(1).padStart(10)}${pct(s.latencies, 0.99).toFixed(1).padStart(10)}`);
    }
    const growth = (after.rss - start.rss) / start.rss;
    console.log(`\ntotal: ${requests} requests in ${seconds.toFixed(1)} s = ${(requests / seconds).toFixed(0)} requests/s; errors ${errors} (goal 0)`);
    for (const e of errorSamples) console.log(`  error sample: ${e}`);
    console.log(`RSS: after setup ${mb(start.rss)}, end of load ${mb(end.rss)}, after load stopped + GC ${mb(after.rss)} (heap ${mb(after.heapUsed)}); growth ${(growth * 100).toFixed(1)}% (goal < ${GROWTH_GOAL * 100}%)`);
    if (dbFile) console.log(`database file: ${mb(statSync(dbFile).size)}`);
    if (errors > 0 || growth >= GROWTH_GOAL) process.exitCode = 1;
  } finally {
    child.removeAllListeners("exit");
    child.send({ kind: "stop" });
    await new Promise((r) => child.once("exit", r));
    rmSync(dir, { recursive: true, force: true });
  }
}
