/**
 * `GET /emulator/v1/changes`: a version string that changes whenever the emulator's state
 * does (a store write, a restore, a clock move, a request, a snapshot); with
 * `Accept: text/event-stream` a server-sent event stream that sends `change` events carrying
 * it, at most every 250 ms. The UI refreshes its tab when the version moves.
 */
import { Router } from "express";
import type { Runtime } from "../../core/runtime.js";
import type { Db } from "../../core/store/db.js";
import { committedChanges } from "../../core/store/committed-changes.js";

// Per database: a restore installs a new store, a reset a fresh in-memory database (whose write counter starts again).
const generations = new WeakMap<Db, number>();
let nextGeneration = 1;

/** An opaque version of the instance's observable state. */
export function stateVersion(rt: Runtime): string {
  let gen = generations.get(rt.store.db);
  if (gen === undefined) generations.set(rt.store.db, (gen = nextGeneration++));
  const lastRequest = rt.families.control.requests.query({ limit: 1 })[0]?.seq ?? 0;
  return [gen, committedChanges(rt.store.db), rt.clock.offsetMs, lastRequest, rt.families.control.snapshots.list().length].join(".");
}

export const CHANGE_POLL_MS = 250;

export function changesRouter(rt: Runtime): Router {
  const router = Router();
  router.get("/emulator/v1/changes", (req, res) => {
    if (!String(req.headers.accept ?? "").includes("text/event-stream")) {
      res.json({ version: stateVersion(rt) });
      return;
    }
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-store", connection: "keep-alive" });
    let last = "";
    const tick = () => {
      let version: string;
      try {
        version = stateVersion(rt);
      } catch {
        // The instance stopped (its store is closed) before this stream's socket said so.
        clearInterval(timer);
        res.end();
        return;
      }
      if (version === last) return;
      last = version;
      res.write(`event: change\ndata: ${JSON.stringify({ version })}\n\n`);
    };
    const timer = setInterval(tick, CHANGE_POLL_MS);
    tick();
    timer.unref();
    req.on("close", () => clearInterval(timer));
  });
  return router;
}
