/**
 * Snapshot benchmark: POST /emulator/v1/snapshots and .../restore over HTTP with 1k and
 * 10k activities in the store, next to the bare SQLite work in the same run (serialize the
 * same database; open a database from the same image).
 *
 * The first 1,000 activities are real sign_raw_payload submissions over stamped HTTP; the
 * 10k state repeats those rows (new ids and fingerprints) through the activity repository,
 * so that filling it does not dominate the run.
 */
import http from "node:http";
import Database from "better-sqlite3";
import { startEmulator } from "../../emulator/index.js";
import { randomUUID } from "node:crypto";
import { post } from "./http.js";
import { median, stampedSubmissions } from "./stamped.js";

const RUNS = Number(process.env.BENCH_SNAPSHOT_RUNS ?? 7);

function request(method: string, url: string, body?: string): Promise<{ status: number; json: any }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers: body ? { "content-type": "application/json" } : {} }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, json: JSON.parse(Buffer.concat(chunks).toString() || "null") }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

function timed<T>(fn: () => T): [T, number] {
  const t = performance.now();
  const out = fn();
  return [out, performance.now() - t];
}

export async function benchSnapshots(): Promise<void> {
  console.log("\n# snapshot benchmark\n");
  const emu = await startEmulator({ port: 0, validateResponses: false });
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const url = new URL(`${emu.url}/public/v1/submit/sign_raw_payload`);
  const account = emu.runtime.store.db.prepare("SELECT address FROM wallet_accounts WHERE address LIKE '0x%' LIMIT 1").get() as { address: string };
  const bodies = await stampedSubmissions(
    emu,
    "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
    (i) => ({ signWith: account.address, payload: `0x${i.toString(16).padStart(64, "0")}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" }),
    1000,
  );
  const t0 = performance.now();
  for (const b of bodies) {
    const status = await post(agent, url, b.body, b.headers);
    if (status !== 200) throw new Error(`sign_raw_payload answered ${status}`);
  }

  console.log(`(filled 1,000 activities over HTTP in ${((performance.now() - t0) / 1000).toFixed(1)} s)`);
  for (const target of [1_000, 10_000]) {
    const store = emu.runtime.store;
    const count = () => (emu.runtime.store.db.prepare("SELECT COUNT(*) AS n FROM activities").get() as { n: number }).n;
    const real = store.activities.list({ orgId: emu.info.organizationId, limit: 1000 });
    store.tx(() => {
      for (let i = 0; count() < target; i++) {
        const { seq: _seq, ...row } = real[i % real.length]!;
        store.activities.insert({ ...row, id: randomUUID(), fingerprint: `sha256:bench-${target}-${i}` });
      }
    });
    const n = count();

    const snapMs: number[] = [];
    const restoreMs: number[] = [];
    const serializeMs: number[] = [];
    const deserializeMs: number[] = [];
    let size = 0;
    for (let r = 0; r < RUNS; r++) {
      let t = performance.now();
      const snap = await request("POST", `${emu.url}/emulator/v1/snapshots`, JSON.stringify({ name: `bench-${target}-${r}` }));
      snapMs.push(performance.now() - t);
      if (snap.status !== 200) throw new Error(`snapshot answered ${snap.status}`);
      const id = snap.json.id;
      size = snap.json.sizeBytes;
      t = performance.now();
      const restored = await request("POST", `${emu.url}/emulator/v1/snapshots/${id}/restore`);
      restoreMs.push(performance.now() - t);
      if (restored.status !== 200) throw new Error(`restore answered ${restored.status}`);
      await request("DELETE", `${emu.url}/emulator/v1/snapshots/${id}`);

      const [image, s] = timed(() => emu.runtime.store.db.serialize());
      serializeMs.push(s);
      const [db, d] = timed(() => new Database(image));
      deserializeMs.push(d);
      db.close();
    }
    if (count() !== n) throw new Error(`restore changed the activity count: ${count()} != ${n}`);
    console.log(
      `${String(n).padStart(6)} activities (${(size / 1024 / 1024).toFixed(1)} MiB)  snapshot p50 ${median(snapMs).toFixed(1)} ms, restore p50 ${median(restoreMs).toFixed(1)} ms over HTTP; ` +
        `bare SQLite serialize ${median(serializeMs).toFixed(1)} ms, open from image ${median(deserializeMs).toFixed(1)} ms`,
    );
  }
  agent.destroy();
  await emu.stop();
}
