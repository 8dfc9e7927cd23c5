/**
 * Emulator-only control features under /emulator/v1/ (never part of the emulated service):
 * the clock, snapshots and state export/import, fault injection and the request log.
 *
 * `controlRouter` serves their routes (mounted by admin/routes.ts); `controlMiddleware`
 * runs in front of the coordinator and the auth proxy (mounted first by app.ts).
 */
import { Router } from "express";
import type { Runtime } from "../runtime.js";
import { clockRouter } from "./clock-routes.js";

export function controlRouter(rt: Runtime): Router {
  const router = Router();
  router.use(clockRouter(rt));
  return router;
}
