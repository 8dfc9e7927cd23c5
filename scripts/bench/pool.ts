/**
 * `npm run bench -- pool`: the memory of the test helpers' pool (emulator/testing/pool.ts), an
 * emulator per worker in the test runner's main process. A child process plays the runner: it
 * loads the built `turnkey-emulator/vitest` (dist/bundle/vitest.js) and runs its global setup as
 * vitest would; this process plays the workers, leasing each worker's instance for one test file
 * after another and sending that file's requests (a wallet with two accounts, a user, five
 * signatures, the lists). The child's RSS after a full GC is taken:
 *   - Node alone (a bare child: the baseline), the runner with one idle instance;
 *   - with 1, 2, 4 and 8 workers after each served its first file, then after 5 files each;
 * giving each extra worker's share (goal: at most 60 MB) next to the cost of an instance run as a
 * process of its own (the runner with one instance that served a file: what a worker would cost
 * if each instance were its own process).
 */
import { fork, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client, completed, ETH_ACCOUNT, newP256Key } from "./client.js";
import { figure, mb, quick } from "./report.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** The runner's part: vitest's global setup of the built package, then leases and memory on request. */
const RUNNER = (vitestModule: string) => `
import { setTimeout as sleep } from "node:timers/promises";
const gcRss = async () => { for (let i = 0; i < 3; i++) { globalThis.gc(); await sleep(50); } return process.memoryUsage().rss; };
let provided = {};
let teardown;
if (process.env.BENCH_BARE !== "1") {
  const { default: setup } = await import(${JSON.stringify(vitestModule)});
  teardown = await setup({ provide: (k, v) => (provided[k] = v), config: { root: process.cwd(), setupFiles: [] } });
}
process.on("message", async (m) => {
  if (m.kind === "memory") process.send({ id: m.id, rss: await gcRss() });
  else if (m.kind === "lease") {
    const res = await fetch(provided.turnkeyLease, { method: "POST", body: JSON.stringify({ slot: m.slot, file: m.file }) });
    process.send({ id: m.id, lease: await res.json() });
  } else if (m.kind === "stop") { await teardown?.(); process.exit(0); }
});
process.send({ ready: true });
`;

class Runner {
  private next = 0;
  private readonly waiting = new Map<number, (m: any) => void>();
  private constructor(private readonly child: ChildProcess) {
    child.on("message", (m: any) => this.waiting.get(m.id)?.(m));
  }
  static async start(script: string, bare = false): Promise<Runner> {
    const child = fork(script, { execArgv: ["--expose-gc"], env: { ...process.env, BENCH_BARE: bare ? "1" : "0" }, stdio: ["ignore", "inherit", "inherit", "ipc"] });
    await new Promise<void>((resolve, reject) => {
      child.once("message", () => resolve());
      child.once("exit", (code) => reject(new Error(`runner exited ${code}`)));
    });
    return new Runner(child);
  }
  private ask(m: Record<string, unknown>): Promise<any> {
    const id = ++this.next;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.child.send({ ...m, id });
    });
  }
  rss = async (): Promise<number> => (await this.ask({ kind: "memory" })).rss;
  lease = async (slot: string, file: string): Promise<{ url: string; organizationId: string; apiPublicKey: string; apiPrivateKey: string }> => (await this.ask({ kind: "lease", slot, file })).lease;
  stop = async () => {
    this.child.send({ kind: "stop" });
    await new Promise((r) => this.child.once("exit", r));
  };
}

/** One test file's requests against its leased instance. */
async function serveFile(runner: Runner, slot: string, file: string): Promise<void> {
  const lease = await runner.lease(slot, `${ROOT}/test/${file}.test.ts`);
  const c = new Client(lease.url, { publicKey: lease.apiPublicKey, privateKey: lease.apiPrivateKey }, lease.organizationId);
  try {
    const wallet = completed("create_wallet", await c.submit("create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "file wallet", accounts: [ETH_ACCOUNT, { ...ETH_ACCOUNT, path: "m/44'/60'/0'/0/1" }] }));
    const address = wallet.result.createWalletResult.addresses[0] as string;
    const key = newP256Key();
    completed("create_users", await c.submit("create_users", "ACTIVITY_TYPE_CREATE_USERS_V4", { users: [{ userName: "file user", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] }));
    for (let i = 0; i < 5; i++) {
      completed("sign_raw_payload", await c.submit("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", { signWith: address, payload: `0x${Buffer.from(`payload ${i}`.padEnd(32, ".")).toString("hex")}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" }));
    }
    for (const q of ["list_wallets", "list_users", "list_activities"]) if ((await c.query(q)).status !== 200) throw new Error(`${q} failed`);
  } finally {
    c.close();
  }
}

export async function benchPool(): Promise<void> {
  const FILES = quick ? 2 : 5;
  console.log(`\n# the test pool's memory: RSS after GC of the runner process (dist/bundle/vitest.js's global setup), up to 8 workers, ${FILES} files each\n`);
  const dir = mkdtempSync(join(tmpdir(), "bench-pool-"));
  const script = join(dir, "runner.mjs");
  writeFileSync(script, RUNNER(pathToFileURL(join(ROOT, "dist", "bundle", "vitest.js")).href));
  try {
    const bare = await Runner.start(script, true);
    const nodeAlone = await bare.rss();
    await bare.stop();
    figure({ section: "pool", name: "Node alone", value: mb(nodeAlone) });

    const runner = await Runner.start(script);
    const idle = await runner.rss();
    figure({ section: "pool", name: "runner with one idle instance", value: mb(idle), baseline: `Node alone ${mb(nodeAlone)}` });
    const after: Record<number, number> = {};
    let workers = 0;
    for (const n of [1, 2, 4, 8]) {
      for (; workers < n; workers++) await serveFile(runner, String(workers + 1), `file-${workers + 1}-1`);
      after[n] = await runner.rss();
      const share = n === 1 ? undefined : (after[n]! - after[1]!) / (n - 1);
      figure({ section: "pool", name: `${n} worker${n === 1 ? "" : "s"}, one file each`, value: mb(after[n]!), ...(share === undefined ? {} : { baseline: `each extra worker ${mb(share)}` }) });
    }
    for (let f = 2; f <= FILES; f++) for (let w = 1; w <= 8; w++) await serveFile(runner, String(w), `file-${w}-${f}`);
    const steady = await runner.rss();
    const perWorker = (steady - after[1]!) / 7;
    figure({ section: "pool", name: `8 workers, ${FILES} files each`, value: mb(steady), baseline: `1 worker after one file ${mb(after[1]!)}` });
    figure({ section: "pool", name: "each extra worker, in the runner's process", value: mb(perWorker), goal: "<= 60 MB", met: perWorker <= 60 * 2 ** 20 });
    figure({ section: "pool", name: "each extra worker, as a process of its own", value: mb(after[1]!), baseline: "an instance's process after one file (what a worker would add per process)" });
    await runner.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
