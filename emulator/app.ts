/**
 * Assembles one emulator's HTTP surface: the coordinator API, the control API and the
 * OpenAPI document, with CORS (the service's, not for the emulator's own routes) and rpcStatus
 * errors for anything unknown.
 */
import express, { type Express } from "express";
import type { Runtime } from "./runtime.js";
import { corsFirst, OPEN_CORS, type CorsPolicy, type CorsRequest } from "./http/cors.js";
import { coordinatorRouter, sendError } from "./http/coordinator.js";
import { adminRouter, type AdminHooks } from "./control/routes.js";
import { GrpcCode, TurnkeyError } from "./errors.js";
import { openApiDocument } from "./http/openapi-document.js";
import { proxyCors, proxyRouter, proxyServes } from "./proxy/router.js";
import { controlMiddleware, requestLogMiddleware } from "./control/index.js";
import { rpcErrorHandler } from "./http/errors.js";
import { conformingBody } from "./http/contract-check.js";
import { coordinatorSchemas } from "../contracts/index.js";
import { webhookRouter } from "./webhooks/routes.js";
import { uiRouter } from "./ui/routes.js";
import { framesRouter } from "./frames/routes.js";
import { internalPathsRouter } from "./http/internal-paths.js";
import { isEmulatorPath, localOrigin, type LocalOriginOptions } from "./http/local-origin.js";
import { coverageMiddleware, coverageRouter } from "./coverage/http.js";

/**
 * The CORS policy of the surface a request is for: the auth proxy's per configuration on the
 * paths it serves, the open one on every other path of the service; none under /emulator/
 * (localOrigin decides there: its own origin, or open CORS).
 */
export function serviceCors(rt: Runtime): (req: CorsRequest) => CorsPolicy | undefined {
  const proxy = proxyCors(rt);
  return (req) => (isEmulatorPath(req.path) ? undefined : proxyServes(rt, req.path) ? proxy : OPEN_CORS);
}

export function createApp(rt: Runtime, hooks: AdminHooks, local: LocalOriginOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.use(localOrigin(local)); // /emulator/...: the emulator's own origin and allowed hosts only (http/local-origin.ts)
  app.use(framesRouter(rt)); // pages the kit loads from the service's domains (the export frame)
  app.use(uiRouter()); // the web UI at /emulator/ui/: static files, served before anything else looks at the request
  app.use(requestLogMiddleware(rt)); // every request of the service, preflights included
  app.use(coverageMiddleware(rt)); // each call of a published operation and how it ended (coverage/)
  // The service's CORS, per surface, before anything else may answer (faults, the rate limit,
  // the body reader, the surfaces): every answer carries it, and preflights end here.
  app.use(corsFirst(serviceCors(rt)));
  app.use(controlMiddleware(rt)); // injected faults, optional rate limit
  app.use(proxyRouter(rt)); // the auth proxy (/v1/...)
  // The public API first: its requests are the ones that come by the thousand, and no control
  // route shares its paths, so they skip the control routers' layers (unknown operations fall through).
  app.use(coordinatorRouter(rt));
  app.use(internalPathsRouter()); // /tkhq/api/v1/...: 501 with why
  app.get("/openapi.json", (_req, res) => {
    res.type("application/json").send(openApiDocument(rt));
  });
  app.use(adminRouter(rt, hooks));
  app.use(coverageRouter(rt)); // GET/DELETE /emulator/v1/coverage
  app.use(webhookRouter(rt)); // the webhook JWKS (public) and /emulator/v1/webhooks/deliveries
  app.use((req, res) => {
    sendError(rt, res, new TurnkeyError(GrpcCode.NOT_FOUND, `Not Found: no operation at ${req.method} ${req.path}`));
  });
  // Anything passed to next(err) (the body reader's 413/415/400, the router's bad paths, a bug) as an rpcStatus.
  app.use(rpcErrorHandler((e) => conformingBody(rt.validateResponses, coordinatorSchemas.rpcStatus, "rpcStatus", "error response", e.toJSON())));
  return app;
}
