/**
 * The emulator's own control API under /emulator/v1/ (never part of the emulated service):
 * what is seeded where, and a reset to the fixtures; and the OpenAPI document at /openapi.json.
 * Other families mount their own control routes (the mailbox, the OIDC issuer, ...).
 */
import { Router } from "express";
import type { Runtime } from "../../core/runtime.js";
import type { Instance } from "../../core/family.js";
import { sendRpcError } from "../../core/http/errors.js";
import { openApiDocument } from "./openapi-document.js";
import { controlRouter } from "./api.js";

export function adminRouter(rt: Runtime, hooks: Instance): Router {
  const router = Router();
  router.get("/openapi.json", (_req, res) => {
    res.type("application/json").send(openApiDocument(rt));
  });
  router.use(controlRouter(rt));
  router.get("/emulator/v1/info", (_req, res) => {
    res.json(hooks.info());
  });
  router.post("/emulator/v1/reset", (_req, res) => {
    try {
      hooks.reset();
      res.json({ reset: true, ...hooks.info() });
    } catch (err) {
      sendRpcError(res, err);
    }
  });
  router.get("/emulator/v1/health", (_req, res) => {
    res.json({ ok: true, now: rt.clock.now(), rssBytes: process.memoryUsage().rss });
  });
  return router;
}
