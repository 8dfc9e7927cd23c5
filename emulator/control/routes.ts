/**
 * The emulator's own control API under /emulator/v1/ (never part of the emulated service):
 * what is seeded where, and a reset to the fixtures.
 */
import { Router } from "express";
import type { Runtime } from "../runtime.js";
import { sendRpcError } from "../http/errors.js";
import { mailboxRouter } from "./mailbox-routes.js";
import { oidcRouter } from "./oidc-routes.js";
import { oauth2ProviderRouter } from "./oauth2-routes.js";
import { onRampRouter } from "../onramp/routes.js";
import { authProxyControlRouter } from "./auth-proxy-routes.js";
import { networksRouter } from "../networks/routes.js";
import { controlRouter } from "./index.js";

export type AdminHooks = {
  info(): Record<string, unknown>;
  reset(): void;
};

export function adminRouter(rt: Runtime, hooks: AdminHooks): Router {
  const router = Router();
  router.use(mailboxRouter(rt));
  router.use(oidcRouter(rt));
  router.use(oauth2ProviderRouter(rt));
  router.use(onRampRouter(rt));
  router.use(authProxyControlRouter(rt));
  router.use(networksRouter(rt));
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
