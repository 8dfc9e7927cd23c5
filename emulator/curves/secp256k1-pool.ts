/**
 * secp256k1 recoverable signatures (libsecp256k1, as in secp256k1.ts) made on a worker thread,
 * for when the event loop has other requests to serve: a signature costs ~150 us of CPU there,
 * and handing one over costs the event loop ~10-40 us.
 *
 * Crossing threads is not free, so the signatures asked for in one turn of the event loop cross
 * in one message (flushed on setImmediate) and come back in one. The worker holds the thread
 * alive only while it has work. The private key crosses to the worker in that message (a copy
 * in this process's memory, never logged or stored); nothing else is kept there. The worker's
 * code is plain JavaScript evaluated from a string, so it runs the same from the TypeScript
 * sources, the compiled package and a bundle; it loads tiny-secp256k1 from where this module
 * resolves it.
 */
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export type RecoverableSignature = { r: Uint8Array; s: Uint8Array; recovery: number };

type Job = { id: number; digest: Uint8Array; privateKey: Uint8Array };
type Result = { id: number; signature?: Uint8Array; recoveryId?: number; error?: string };

const WORKER_CODE = `
const { parentPort, workerData } = require("node:worker_threads");
const lib = require(workerData.libsecp256k1);
parentPort.on("message", (jobs) => {
  const out = [];
  for (const j of jobs) {
    try {
      const { signature, recoveryId } = lib.signRecoverable(j.digest, j.privateKey);
      out.push({ id: j.id, signature, recoveryId });
    } catch (e) {
      out.push({ id: j.id, error: String(e && e.message || e) });
    }
  }
  parentPort.postMessage(out);
});
`;

let worker: Worker | undefined;
let queued: Job[] = [];
let nextId = 1;
const waiting = new Map<number, { resolve: (s: RecoverableSignature) => void; reject: (e: Error) => void }>();
let signedOffThread = 0;

/** How many signatures this process has had made on the worker (for tests). */
export function offThreadSignatureCount(): number {
  return signedOffThread;
}

/** RFC 6979 deterministic, low-S ECDSA over a 32-byte digest with its recovery id, made on the worker thread. */
export function signRecoverableSecp256k1OffThread(digest: Uint8Array, privateKey: Uint8Array): Promise<RecoverableSignature> {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    if (queued.length === 0) setImmediate(flush);
    queued.push({ id, digest, privateKey });
  });
}

function flush(): void {
  const jobs = queued;
  queued = [];
  if (jobs.length === 0) return;
  const w = start();
  w.ref(); // work outstanding: the process waits for it
  w.postMessage(jobs);
}

function start(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_CODE, { eval: true, workerData: { libsecp256k1: createRequire(import.meta.url).resolve("tiny-secp256k1") } });
  w.on("message", (results: Result[]) => {
    for (const { id, signature, recoveryId, error } of results) {
      const settle = waiting.get(id);
      waiting.delete(id);
      if (!settle) continue;
      if (error !== undefined || !signature) settle.reject(new Error(`secp256k1 signing failed: ${error ?? "no signature"}`));
      else {
        signedOffThread++;
        settle.resolve({ r: signature.subarray(0, 32), s: signature.subarray(32, 64), recovery: recoveryId! });
      }
    }
    if (waiting.size === 0) w.unref();
  });
  const fail = (e: Error) => {
    // A worker that dies fails what it held; the next signature starts a new one.
    if (worker === w) worker = undefined;
    const notSent = new Set(queued.map((j) => j.id));
    for (const [id, settle] of waiting) {
      if (notSent.has(id)) continue;
      waiting.delete(id);
      settle.reject(new Error(`the secp256k1 signing thread stopped: ${e.message}`));
    }
  };
  w.on("error", fail);
  w.on("exit", (code) => fail(new Error(`exit code ${code}`)));
  w.unref();
  worker = w;
  return w;
}
