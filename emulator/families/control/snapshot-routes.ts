/**
 * Snapshots (`/emulator/v1/snapshots`) and the whole state as one SQLite file
 * (`GET`/`PUT /emulator/v1/state`).
 */
import express, { Router } from "express";
import type { Runtime } from "../../core/runtime.js";
import { bodyOf, handle, jsonOf, readBody } from "../../core/http/control-routes.js";
import { captureState, loadState } from "./snapshots.js";

/** States can be far larger than an API request. */
const MAX_STATE_BYTES = 2 * 1024 * 1024 * 1024 - 1;
const stateBody = bodyOf(express.raw({ type: () => true, limit: MAX_STATE_BYTES }));

export function snapshotRouter(rt: Runtime): Router {
  const router = Router();
  const shelf = rt.families.control.snapshots;
  router.post(
    "/emulator/v1/snapshots",
    readBody,
    handle((req, res) => {
      res.json(shelf.take(rt, jsonOf(req).name));
    }),
  );
  router.get("/emulator/v1/snapshots", (_req, res) => {
    res.json({ snapshots: shelf.list() });
  });
  router.post(
    "/emulator/v1/snapshots/:id/restore",
    handle((req, res) => {
      res.json({ restored: shelf.restore(rt, String(req.params.id)) });
    }),
  );
  router.delete(
    "/emulator/v1/snapshots/:id",
    handle((req, res) => {
      res.json({ deleted: shelf.delete(String(req.params.id)) });
    }),
  );
  router.get("/emulator/v1/state", (_req, res) => {
    const image = captureState(rt.store);
    res.setHeader("content-disposition", 'attachment; filename="emulator-state.sqlite"');
    res.type("application/octet-stream").send(image);
  });
  router.put(
    "/emulator/v1/state",
    stateBody,
    handle((req, res) => {
      const image = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
      loadState(rt, image);
      res.json({ loaded: true, sizeBytes: image.length });
    }),
  );
  return router;
}
