/**
 * Emulator-only control features under /emulator/v1/ (never part of the emulated service):
 * the clock, snapshots and state export/import, fault injection and the request log.
 *
 * `controlRouter` serves their routes (mounted by routes.ts); `requestLogMiddleware`
 * records each request of the service and `controlMiddleware` applies faults and the optional
 * rate limit, both in front of the coordinator and the auth proxy (their stages in family.ts, mounted by core/http/app.ts).
 */
import { readFileSync } from "node:fs";
import { Router, type RequestHandler } from "express";
import type { Runtime } from "../../core/runtime.js";
import { clockRouter } from "./clock-routes.js";
import { snapshotRouter } from "./snapshot-routes.js";
import { loadState } from "./snapshots.js";
import { faultMiddleware, faultRouter } from "./fault-routes.js";
import { rateLimitMiddleware } from "./rate-limit.js";
import { requestLogMiddleware, requestLogRouter } from "./request-log-routes.js";
import { organizationsRouter } from "./organizations-routes.js";
import { activitiesRouter } from "./activities-routes.js";
import { policiesRouter } from "./policies-routes.js";
import { changesRouter } from "./ui-events.js";

export function controlRouter(rt: Runtime): Router {
  const router = Router();
  router.use(clockRouter(rt));
  router.use(snapshotRouter(rt));
  router.use(faultRouter(rt));
  router.use(requestLogRouter(rt));
  // Inspection and voting routes the web UI reads (and scripts may too).
  router.use(organizationsRouter(rt), activitiesRouter(rt), policiesRouter(rt), changesRouter(rt));
  return router;
}

/** Faults and the optional rate limit, in front of the coordinator and the auth proxy (after the request log and the service's CORS: core/http/app.ts). */
export function controlMiddleware(rt: Runtime): RequestHandler[] {
  return [faultMiddleware(rt), rateLimitMiddleware(rt)];
}

/** What a reset clears besides the store and the clock: faults and rate-limit windows (snapshots and the request log stay). */
export function resetControl(rt: Runtime): void {
  const s = rt.families.control;
  s.faults.clear();
  s.rateLimiter?.clear();
}

/** Loads a state file (the bytes of GET /emulator/v1/state) into the instance. */
export function loadStateFile(rt: Runtime, file: string): void {
  loadState(rt, readFileSync(file));
}

export { controlState, type ControlOptions } from "./state.js";
export { requestLogMiddleware };
export { exportStateFile, SnapshotShelf } from "./snapshots.js";
export { fixtureDevKeys } from "./ui-votes.js";
