/**
 * `npm run bench -- webhooks`: what a subscribed webhook endpoint adds to the latency of the
 * activity that triggers it. The emulator runs in a child process (emulator-child.ts), the
 * receiver (answers 200 at once) in another, the load generator here. In one run, alternating blocks of
 * pre-stamped sign_raw_payload activities with the endpoint paused (the same-run baseline) and
 * active, sequentially and 16 in flight; every delivery of an active block has arrived before
 * the next block starts, so each block pays only for its own deliveries. The figure is the
 * median over rounds of (subscribed block / paused block it ran beside). Goal: < 5% added.
 * The emulator's CPU time per activity (both ways) is printed beside it: latency on a busy
 * machine moves with the load, CPU time much less.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync } from "node:fs";
import { EmulatorChild } from "./emulator-child.js";
import { Client, completed } from "./client.js";
import { load, type LoadResult } from "./http.js";
import { bootstrapInterval, figure, median, midpointMedian, ms, quick } from "./report.js";

const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

export async function benchWebhooks(): Promise<void> {
  // Many short rounds rather than a few long ones: the load of other processes drifts over
  // seconds, and blocks that alternate faster cancel more of it (the figure comes with its
  // bootstrap interval, which says how far it could move on another run).
  const N = Number(process.env.BENCH_WEBHOOK_ACTIVITIES ?? (quick ? 100 : 200));
  const ROUNDS = quick ? 8 : 20;
  console.log(`\n# webhooks: an activity's latency with and without a subscribed endpoint (${N} sign_raw_payload per block, ${ROUNDS} rounds of a paused and a subscribed block, in alternating order; emulator in a child process)\n`);
  const receiver = await Receiver.start();
  const receiverUrl = receiver.url;
  const until = (n: number) => receiver.until(n);
  let received: number;
  const child = await EmulatorChild.start();
  const { info } = child;
  const client = new Client(info.url, { publicKey: info.apiPublicKey, privateKey: info.apiPrivateKey }, info.organizationId);
  const results: Record<string, LoadResult[]> = {};
  const cpu: Record<string, number[]> = {};
  const busy: Record<string, number[]> = {};
  const mainCpu: Record<string, number[]> = {};
  try {
    const created = completed("create_webhook_endpoint", await client.submit("create_webhook_endpoint", "ACTIVITY_TYPE_CREATE_WEBHOOK_ENDPOINT", { url: receiverUrl, name: "bench", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] }));
    const endpointId = created.result.createWebhookEndpointResult.endpointId as string;
    const setActive = async (isActive: boolean) => {
      completed("update_webhook_endpoint", await client.submit("update_webhook_endpoint", "ACTIVITY_TYPE_UPDATE_WEBHOOK_ENDPOINT", { endpointId, isActive }));
    };
    let ts = Date.now();
    const bodies = async (n: number) => {
      const out = [];
      for (let i = 0; i < n; i++) {
        const p = Buffer.from(`webhook bench ${ts}`).toString("hex");
        out.push(await client.stamped({ type: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", timestampMs: String(ts++), parameters: { signWith: ANVIL_0, payload: `0x${p}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" } }));
      }
      return out;
    };
    const url = `${info.url}/public/v1/submit/sign_raw_payload`;
    // Nothing left in the outbox (what an earlier block queued has been sent).
    const drained = async () => {
      for (;;) {
        const { deliveries } = (await (await fetch(`${info.url}/emulator/v1/webhooks/deliveries?status=PENDING&limit=1`)).json()) as { deliveries: unknown[] };
        if (!deliveries.length) return;
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    // Warm-up: the server's paths and the load generator's own code, at both concurrencies.
    const warm = await bodies(1000);
    let w = 0;
    await load(url, () => warm[w++]!, 500, 1);
    await load(url, () => warm[w++]!, 500, 16);
    for (const inFlight of [1, 16]) {
      for (let round = 0; round < ROUNDS; round++) {
        // Alternating order, so that a load that rises or falls during a round favours neither side.
        for (const active of round % 2 ? [true, false] : [false, true]) {
          await drained();
          const before = await receiver.count();
          await setActive(active);
          if (active) await until(before + 1); // the update's own event
          await drained();
          received = await receiver.count();
          const batch = await bodies(N);
          let next = 0;
          const cpu0 = await child.cpu();
          const busy0 = await child.busy();
          const main0 = mainThreadCpu(child.pid);
          const r = await load(url, () => batch[next++]!, N, inFlight);
          const main1 = mainThreadCpu(child.pid);
          const busy1 = await child.busy();
          if (main0 !== undefined && main1 !== undefined) (mainCpu[`${active ? "on" : "off"}${inFlight}`] ??= []).push(main1 - main0);
          const cpu1 = await child.cpu();
          (busy[`${active ? "on" : "off"}${inFlight}`] ??= []).push((busy1 - busy0) / N);
          (results[`${active ? "on" : "off"}${inFlight}`] ??= []).push(r);
          (cpu[`${active ? "on" : "off"}${inFlight}`] ??= []).push((cpu1 - cpu0) / N);
          if (active) {
            const t = performance.now();
            await until(received + N);
            (results[`drain${inFlight}`] ??= []).push({ ...r, seconds: (performance.now() - t) / 1000 });
          }
        }
      }
    }
  } finally {
    client.close();
    await child.stop();
    receiver.stop();
  }
  for (const inFlight of [1, 16]) {
    // Per-request latency from the total time of the blocks (mean), and the median of block p50s.
    const mean = (k: string) => results[k]!.reduce((s, r) => s + (r.seconds * 1000 * inFlight) / r.requests, 0) / results[k]!.length;
    const p50 = (k: string) => median(results[k]!.map((r) => r.p50));
    const off = mean(`off${inFlight}`);
    const on = mean(`on${inFlight}`);
    // Each round's paused and subscribed blocks ran back to back: the median of their ratios
    // is the figure (the other helpers' load on a shared machine swings block means by tens of %).
    const blockMean = (r: LoadResult) => (r.seconds * 1000 * inFlight) / r.requests;
    const ratios = results[`on${inFlight}`]!.map((r, i) => blockMean(r) / blockMean(results[`off${inFlight}`]![i]!)).sort((a, b) => a - b);
    const added = (midpointMedian(ratios) - 1) * 100;
    const [low, high] = bootstrapInterval(ratios, midpointMedian).map((r) => (r - 1) * 100) as [number, number];
    const signed = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(1)}%`;
    const pct = (r: number) => `${r >= 1 ? "+" : ""}${((r - 1) * 100).toFixed(1)}%`;
    const errors = [...results[`off${inFlight}`]!, ...results[`on${inFlight}`]!].reduce((s, r) => s + r.errors, 0);
    const avg = (m: Record<string, number[]>, k: string) => m[k]!.reduce((a, b) => a + b, 0) / m[k]!.length;
    const mainPer = (k: string) => ((mainCpu[k]!.reduce((a, b) => a + b, 0) / (mainCpu[k]!.length * N)) * 1e6).toFixed(0);
    console.log(`  ${inFlight} in flight: emulator CPU per activity ${avg(cpu, `off${inFlight}`).toFixed(0)} us paused, ${avg(cpu, `on${inFlight}`).toFixed(0)} us subscribed (all threads, delivery included); main thread busy per activity ${avg(busy, `off${inFlight}`).toFixed(0)} us paused, ${avg(busy, `on${inFlight}`).toFixed(0)} us subscribed${mainCpu[`on${inFlight}`] ? `, its CPU ${mainPer(`off${inFlight}`)} us paused, ${mainPer(`on${inFlight}`)} us subscribed` : ""}; p50 paused ${ms(p50(`off${inFlight}`), 2)}, subscribed ${ms(p50(`on${inFlight}`), 2)}; errors ${errors}; per round ${ratios.map(pct).join(" ")}; deliveries left after an active block drained in ${ms(Math.max(...results[`drain${inFlight}`]!.map((r) => r.seconds * 1000)))} at most`);
    figure({
      section: "webhooks",
      name: `activity latency with a subscribed endpoint (${inFlight} in flight)`,
      value: `${signed(added)} (median of ${ratios.length} paired rounds, 95% interval ${signed(low)} to ${signed(high)}; mean ${ms(on, 2)} subscribed)`,
      baseline: `mean ${ms(off, 2)} endpoint paused`,
      goal: "< 5% added",
      met: added < 5 && errors === 0,
    });
  }
}

/** The receiver in a process of its own: counts POSTs, answers 200 at once. */
class Receiver {
  private nextId = 0;
  private readonly waiting = new Map<number, (n: number) => void>();
  private constructor(
    private readonly proc: ChildProcess,
    readonly url: string,
  ) {
    proc.on("message", (m: { id: number; count: number }) => {
      this.waiting.get(m.id)?.(m.count);
      this.waiting.delete(m.id);
    });
  }

  static async start(): Promise<Receiver> {
    const code = `
      const http = require("node:http");
      let count = 0;
      const waiters = [];
      const server = http.createServer((req, res) => { req.resume(); req.on("end", () => { count++; res.end(); for (const w of waiters.splice(0)) if (count >= w.n) process.send({ id: w.id, count }); else waiters.push(w); }); });
      process.on("message", (m) => { if (m.n === undefined || count >= m.n) process.send({ id: m.id, count }); else waiters.push(m); });
      server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
    `;
    const proc = spawn(process.execPath, ["-e", code], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
    const port = await new Promise<number>((resolve) => proc.once("message", (m: { port: number }) => resolve(m.port)));
    return new Receiver(proc, `http://127.0.0.1:${port}/hook`);
  }

  private ask(n?: number): Promise<number> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      this.proc.send({ id, n });
    });
  }

  /** POSTs received so far. */
  count(): Promise<number> {
    return this.ask();
  }

  /** Resolves once `n` POSTs have arrived. */
  async until(n: number): Promise<void> {
    await this.ask(n);
  }

  stop(): void {
    this.proc.kill();
  }
}

/**
 * CPU time (s) the process's main thread alone has used (Linux: /proc/<pid>/task/<pid>/schedstat,
 * in nanoseconds; the clock ticks of .../stat are 10 ms, as coarse as a fifth of a block): unlike
 * wall-clock busy time it does not grow when other processes take the core, and it leaves out
 * the delivery worker thread. undefined elsewhere.
 */
function mainThreadCpu(pid: number): number | undefined {
  try {
    return Number(readFileSync(`/proc/${pid}/task/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e9;
  } catch {
    return undefined;
  }
}
