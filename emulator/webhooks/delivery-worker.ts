/**
 * The HTTP side of delivery, in a worker thread: signing and POSTing (socket writes, TLS,
 * parsing answers) happen off the event loop that serves requests, so a subscribed endpoint
 * costs the request path one outbox row and one message. The worker's code is plain
 * JavaScript evaluated from a string, so it runs the same from the TypeScript sources, the
 * compiled package and a bundle.
 */
import { Worker } from "node:worker_threads";
import type { KeyObject } from "node:crypto";

export type Answer = { statusCode: number; signature: string; durationMs: number } | { error: string; signature: string; durationMs: number };

export type SendRequest = { url: string; headers: Record<string, string>; body: string; key: KeyObject; timeoutMs: number };

const WORKER_CODE = `
const { parentPort } = require("node:worker_threads");
const http = require("node:http");
const https = require("node:https");
const { sign } = require("node:crypto");
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
const open = new Map();
parentPort.on("message", (m) => {
  if (m.kind === "abort") { for (const r of open.values()) r.destroy(); open.clear(); return; }
  const h = m.headers;
  const input = Buffer.concat([Buffer.from("v1.ed25519." + h["x-turnkey-signature-key-id"] + "." + h["x-turnkey-timestamp"] + "." + h["x-turnkey-event-id"] + ".", "utf8"), Buffer.from(m.body, "utf8")]);
  const signature = sign(null, input, m.key).toString("hex");
  const payload = Buffer.from(m.body, "utf8");
  const started = performance.now();
  let done = false;
  const reply = (r) => { if (done) return; done = true; open.delete(m.id); parentPort.postMessage({ id: m.id, signature, durationMs: Math.round(performance.now() - started), ...r }); };
  let target;
  try { target = new URL(m.url); } catch { return reply({ error: "invalid URL" }); }
  const secure = target.protocol === "https:";
  const req = (secure ? https : http).request(target, {
    method: "POST",
    headers: { ...h, "x-turnkey-signature": signature, "content-length": String(payload.length) },
    agent: secure ? agents.https : agents.http,
    timeout: m.timeoutMs,
  });
  open.set(m.id, req);
  req.on("response", (res) => { res.resume(); reply({ statusCode: res.statusCode || 0 }); });
  req.on("timeout", () => req.destroy(new Error("no answer within " + m.timeoutMs + " ms")));
  req.on("error", (e) => reply({ error: e.code ? e.code + ": " + e.message : e.message }));
  req.end(payload);
});
`;

/** One worker per dispatcher, started on first use. */
export class DeliveryWorker {
  private worker: Worker | null = null;
  private nextId = 0;
  private readonly waiting = new Map<number, (a: Answer) => void>();

  /** Signs (X-Turnkey-Signature over the v1 input) and POSTs; resolves with the receiver's status or the network error. */
  send(r: SendRequest): Promise<Answer> {
    const worker = this.start();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      worker.postMessage({ kind: "send", id, ...r });
    });
  }

  /** Ends the worker; unanswered sends resolve as aborted. */
  async stop(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    this.settleAll("aborted: the emulator stopped");
    if (w) await w.terminate();
  }

  private start(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(WORKER_CODE, { eval: true });
    w.unref();
    w.on("message", (m: Answer & { id: number }) => {
      const resolve = this.waiting.get(m.id);
      this.waiting.delete(m.id);
      resolve?.(m);
    });
    w.on("error", (e) => {
      // A worker that dies leaves its sends unanswered: they count as network errors (retried); the next send starts a new one.
      if (this.worker === w) this.worker = null;
      this.settleAll(`delivery worker failed: ${e.message}`);
    });
    this.worker = w;
    return w;
  }

  private settleAll(error: string): void {
    const waiting = [...this.waiting.values()];
    this.waiting.clear();
    for (const resolve of waiting) resolve({ error, signature: "", durationMs: 0 });
  }
}
