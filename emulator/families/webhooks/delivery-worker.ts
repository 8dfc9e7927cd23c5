/**
 * The HTTP side of delivery, in a worker thread: signing and POSTing (socket writes, TLS,
 * parsing answers) happen off the event loop that serves requests.
 *
 * Crossing threads is not free (each message wakes the other thread, which on a virtual
 * machine costs about as much as a socket write), so both directions are batched: the sends
 * asked for in one turn of the event loop cross in one message, and the worker reports
 * outcomes together, once nothing it holds is still waiting for an answer (or after
 * REPORT_MS). It has up to `concurrency` POSTs in flight, one at a time per URL, in the order
 * they were asked for, so that a receiver gets an endpoint's events in order (a retried one
 * comes after those sent meanwhile). The signing key crosses once per key, not with every send. The worker runs at
 * the lowest scheduling priority (nice 19, its thread alone), so that on busy CPUs the
 * threads serving requests go first. The worker's code is plain JavaScript evaluated from a
 * string, so it runs the same from the TypeScript sources, the compiled package and a bundle.
 */
import { Worker } from "node:worker_threads";
import type { KeyObject } from "node:crypto";

/** What became of one send: the receiver's HTTP status, or why none came. (The signature goes out in its header only; nothing reads it back.) */
export type Answer = { statusCode: number; durationMs: number } | { error: string; durationMs: number };

export type SendRequest = { url: string; headers: Record<string, string>; body: string; key: KeyObject; timeoutMs: number };

/** The longest an outcome waits in the worker for the others of its batch. */
const REPORT_MS = 20;

const WORKER_CODE = `
const { parentPort, workerData } = require("node:worker_threads");
const http = require("node:http");
const https = require("node:https");
const { sign } = require("node:crypto");
// Lowest scheduling priority for this thread alone (on Linux setpriority(0) applies to the
// calling thread): when the CPUs are busy, serving requests comes first and deliveries wait.
try { require("node:os").setPriority(0, 19); } catch {}
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
const concurrency = workerData.concurrency;
const keys = new Map();
const open = new Map();
const queue = [];
// One POST at a time per URL, in the order asked: a receiver gets one endpoint's events in order.
const busyUrls = new Set();
let answers = [];
let reportTimer = null;
const report = () => {
  if (reportTimer) { clearTimeout(reportTimer); reportTimer = null; }
  if (!answers.length) return;
  const out = answers;
  answers = [];
  parentPort.postMessage(out);
};
const settle = (answer) => {
  answers.push(answer);
  if (!open.size && !queue.length) report();
  else if (!reportTimer) reportTimer = setTimeout(report, ${REPORT_MS});
};
const next = () => {
  for (let i = 0; i < queue.length && open.size < concurrency; ) {
    if (busyUrls.has(queue[i].url)) i++;
    else post(queue.splice(i, 1)[0]);
  }
};
const post = (m) => {
  const h = m.headers;
  const input = Buffer.concat([Buffer.from("v1.ed25519." + h["x-turnkey-signature-key-id"] + "." + h["x-turnkey-timestamp"] + "." + h["x-turnkey-event-id"] + ".", "utf8"), Buffer.from(m.body, "utf8")]);
  const signature = sign(null, input, keys.get(h["x-turnkey-signature-key-id"])).toString("hex");
  const payload = Buffer.from(m.body, "utf8");
  const started = performance.now();
  let done = false;
  busyUrls.add(m.url);
  const reply = (r) => {
    if (done) return;
    done = true;
    open.delete(m.id);
    busyUrls.delete(m.url);
    next();
    settle({ id: m.id, durationMs: Math.round(performance.now() - started), ...r });
  };
  let target;
  try { target = new URL(m.url); } catch { open.set(m.id, null); return reply({ error: "invalid URL" }); }
  const secure = target.protocol === "https:";
  const attempt = (again) => {
    const req = (secure ? https : http).request(target, {
      method: "POST",
      headers: { ...h, "x-turnkey-signature": signature, "content-length": String(payload.length) },
      agent: secure ? agents.https : agents.http,
      timeout: m.timeoutMs,
    });
    open.set(m.id, req);
    req.on("response", (res) => { res.resume(); reply({ statusCode: res.statusCode || 0 }); });
    req.on("timeout", () => req.destroy(new Error("no answer within " + m.timeoutMs + " ms")));
    req.on("error", (e) => {
      // A kept-alive connection the receiver had closed meanwhile: once more on a new one.
      if (!again && req.reusedSocket && e.code === "ECONNRESET") return attempt(true);
      reply({ error: e.code ? e.code + ": " + e.message : e.message });
    });
    req.end(payload);
  };
  attempt(false);
};
parentPort.on("message", (batch) => {
  for (const m of batch) {
    if (m.kind === "key") keys.set(m.kid, m.key);
    else queue.push(m);
  }
  next();
});
`;

type Outgoing = { kind: "key"; kid: string; key: KeyObject } | ({ kind: "send"; id: number } & Omit<SendRequest, "key">);

/** One worker per dispatcher, started on first use. */
export class DeliveryWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, (a: Answer) => void>();
  /** Keys the worker holds or is about to receive (in `outgoing`), by kid; a worker that is gone takes them with it. */
  private readonly sentKeys = new Map<string, KeyObject>();
  private outgoing: Outgoing[] = [];
  private flushScheduled = false;

  /** @param concurrency the most POSTs the worker has in flight at once (more wait in its queue). */
  constructor(private readonly concurrency = 16) {}

  /** Signs (X-Turnkey-Signature over the v1 input) and POSTs; resolves with the receiver's status or the network error. */
  send(r: SendRequest): Promise<Answer> {
    const id = this.nextId++;
    const { key, ...rest } = r;
    const kid = r.headers["x-turnkey-signature-key-id"]!;
    if (this.sentKeys.get(kid) !== key) {
      this.outgoing.push({ kind: "key", kid, key });
      this.sentKeys.set(kid, key);
    }
    this.outgoing.push({ kind: "send", id, ...rest });
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
    return new Promise((resolve) => this.waiting.set(id, resolve));
  }

  /** Ends the worker; unanswered sends resolve as aborted. */
  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.outgoing = [];
    this.sentKeys.clear();
    this.settleAll("aborted: the emulator stopped");
    if (w) await w.terminate();
  }

  /** Everything asked for in this turn, in one message. */
  private flush(): void {
    this.flushScheduled = false;
    if (!this.outgoing.length) return;
    const batch = this.outgoing;
    this.outgoing = [];
    this.start().postMessage(batch);
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_CODE, { eval: true, workerData: { concurrency: this.concurrency } });
    w.unref();
    w.on("message", (answers: (Answer & { id: number })[]) => {
      for (const { id, ...answer } of answers) {
        const resolve = this.waiting.get(id);
        this.waiting.delete(id);
        resolve?.(answer);
      }
    });
    w.on("error", (e) => {
      // A worker that dies leaves its sends unanswered: they count as network errors (retried); the next send starts a new one.
      if (this.worker !== w) return;
      this.worker = null;
      // Sends queued meanwhile may rely on keys the dead worker had: the next one gets them all first.
      this.outgoing.unshift(...[...this.sentKeys].map(([kid, key]) => ({ kind: "key" as const, kid, key })));
      this.settleAll(`delivery worker failed: ${e.message}`);
    });
    this.worker = w;
    return w;
  }

  private settleAll(error: string): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const resolve of waiting) resolve({ error, durationMs: 0 });
  }
}
