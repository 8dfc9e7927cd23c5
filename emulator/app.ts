/**
 * Assembles one emulator's HTTP surface: the coordinator API, the control API and the
 * OpenAPI document, with CORS (the service's, not for the emulator's own routes) and rpcStatus
 * errors for anything unknown.
 */
import express, { type Express } from "express";
import type { Runtime } from "./runtime.js";
import { cors } from "./http/cors.js";
import { coordinatorRouter, sendError } from "./http/coordinator.js";
import { adminRouter, type AdminHooks } from "./control/routes.js";
import { GrpcCode, TurnkeyError } from "./errors.js";
import { openApiDocument } from "./http/openapi-document.js";
import { proxyRouter } from "./proxy/router.js";
import { controlMiddleware } from "./control/index.js";
import { rpcErrorHandler } from "./http/errors.js";
import { conformingBody } from "./http/contract-check.js";
import { coordinatorSchemas } from "../contracts/index.js";
import { webhookRouter } from "./webhooks/routes.js";
import { uiRouter } from "./ui/routes.js";
import { framesRouter } from "./frames/routes.js";
import { internalPathsRouter } from "./http/internal-paths.js";
import { isEmulatorPath, localOrigin, type LocalOriginOptions } from "./http/local-origin.js";

export function createApp(rt: Runtime, hooks: AdminHooks, local: LocalOriginOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.use(localOrigin(local)); // /emulator/...: the emulator's own origin and allowed hosts only (http/local-origin.ts)
  app.use(framesRouter(rt)); // pages the kit loads from the service's domains (the export frame)
  app.use(uiRouter()); // the web UI at /emulator/ui/: static files, served before anything else looks at the request
  app.use(controlMiddleware(rt)); // request log, injected faults, optional rate limit
  app.use(proxyRouter(rt)); // the auth proxy answers its own CORS, per configuration
  const serviceCors = cors();
  // Everything under /emulator/ had its answer from localOrigin (its own origin, or open CORS).
  app.use((req, res, next) => (isEmulatorPath(req.path) ? next() : serviceCors(req, res, next)));
  // The public API first: its requests are the ones that come by the thousand, and no control
  // route shares its paths, so they skip the control routers' layers (unknown operations fall through).
  app.use(coordinatorRouter(rt));
  app.use(internalPathsRouter()); // /tkhq/api/v1/...: 501 with why
  app.get("/openapi.json", (_req, res) => {
    res.type("application/json").send(openApiDocument(rt));
  });
  app.use(adminRouter(rt, hooks));
  app.use(webhookRouter(rt)); // the webhook JWKS (public) and /emulator/v1/webhooks/deliveries
  app.use((req, res) => {
    sendError(rt, res, new TurnkeyError(GrpcCode.NOT_FOUND, `Not Found: no operation at ${req.method} ${req.path}`));
  });
  // Anything passed to next(err) (the body reader's 413/415/400, the router's bad paths, a bug) as an rpcStatus.
  app.use(rpcErrorHandler((e) => conformingBody(rt.validateResponses, coordinatorSchemas.rpcStatus, "rpcStatus", "error response", e.toJSON())));
  return app;
}
