/**
 * Assembles one emulator's HTTP surface: the coordinator API and the families' routes (the
 * auth proxy, the control API, the emulator's pages), with CORS (the service's, not for the
 * emulator's own routes) and rpcStatus errors for anything unknown.
 */
import express, { type Express } from "express";
import type { Runtime } from "../runtime.js";
import type { Family, Instance, RouteStage } from "../family.js";
import { corsFirst, OPEN_CORS, type CorsPolicy, type CorsRequest } from "./cors.js";
import { coordinatorHandler, sendError } from "./coordinator.js";
import { GrpcCode, TurnkeyError } from "../errors.js";
import { rpcErrorHandler } from "./errors.js";
import { conformingBody } from "./contract-check.js";
import { coordinatorSchemas } from "../../../contracts/index.js";
import { internalPathsRouter } from "./internal-paths.js";
import { isEmulatorPath, localOrigin, type LocalOriginOptions } from "./local-origin.js";

/**
 * The CORS policy of the surface a request is for: a family's on the paths it serves (the
 * auth proxy's, per configuration), the open one on every other path of the service; none
 * under /emulator/ (localOrigin decides there: its own origin, or open CORS).
 */
export function serviceCors(rt: Runtime): (req: CorsRequest) => CorsPolicy | undefined {
  return (req) => (isEmulatorPath(req.path) ? undefined : (rt.hooks.surfaceCors(rt, req) ?? OPEN_CORS));
}

export function createApp(rt: Runtime, families: readonly Pick<Family<never>, "routes">[], instance: Instance, local: LocalOriginOptions = {}): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  /** Mounts every family's routes of one stage (family.ts RouteStage), in the families' order. */
  const mount = (stage: RouteStage) => {
    for (const f of families) {
      const routes = f.routes?.[stage];
      if (routes) app.use(routes(rt, instance));
    }
  };
  app.use(localOrigin(local)); // /emulator/...: the emulator's own origin and allowed hosts only (http/local-origin.ts)
  mount("pages"); // the export frames, the web UI: static files, served before anything else looks at the request
  mount("log"); // the request log: every request of the service, preflights included
  // The service's CORS, per surface, before anything else may answer (faults, the rate limit,
  // the body reader, the surfaces): every answer carries it, and preflights end here.
  app.use(corsFirst(serviceCors(rt)));
  mount("guard"); // injected faults, optional rate limit
  mount("surface"); // the auth proxy (/v1/...)
  // The public API first: its requests are the ones that come by the thousand, and no control
  // route shares its paths, so they skip the control routers' layers (unknown operations fall through).
  app.use(coordinatorHandler(rt));
  app.use(internalPathsRouter()); // /tkhq/api/v1/...: 501 with why
  mount("control"); // /openapi.json, the control API, the webhook JWKS
  app.use((req, res) => {
    sendError(rt, res, new TurnkeyError(GrpcCode.NOT_FOUND, `Not Found: no operation at ${req.method} ${req.path}`));
  });
  // Anything passed to next(err) (the body reader's 413/415/400, the router's bad paths, a bug) as an rpcStatus.
  app.use(rpcErrorHandler((e) => conformingBody(rt.validateResponses, coordinatorSchemas.rpcStatus, "rpcStatus", "error response", e.toJSON())));
  return app;
}
