/**
 * Emulator-only control features under /emulator/v1/ (never part of the emulated service):
 * the clock, snapshots and state export/import, fault injection and the request log.
 *
 * `controlRouter` serves their routes (mounted by admin/routes.ts); `controlMiddleware`
 * runs in front of the coordinator and the auth proxy (mounted first by app.ts).
 */
import { readFileSync } from "node:fs";
import { Router } from "express";
import type { Runtime } from "../runtime.js";
import { clockRouter } from "./clock-routes.js";
import { snapshotRouter } from "./snapshot-routes.js";
import { loadState } from "./snapshots.js";

export function controlRouter(rt: Runtime): Router {
  const router = Router();
  router.use(clockRouter(rt));
  router.use(snapshotRouter(rt));
  return router;
}

export type ControlOptions = {
  /** Print one line per request (`--log`); a function receives the lines instead of stdout. */
  log?: boolean | ((line: string) => void);
  /** Enforce the per-organization rate limit (`--rate-limit`). */
  rateLimit?: boolean;
};

/** Applies the start options of the control features to one instance. */
export function configureControl(rt: Runtime, _options: ControlOptions): void {}

/** What a reset clears besides the store and the clock. */
export function resetControl(_rt: Runtime): void {}

/** Loads a state file (the bytes of GET /emulator/v1/state) into the instance. */
export function loadStateFile(rt: Runtime, file: string): void {
  loadState(rt, readFileSync(file));
}

export { exportStateFile } from "./snapshots.js";
