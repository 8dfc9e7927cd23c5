/**
 * Assembles one emulator's HTTP surface: the coordinator API, the control API and the
 * OpenAPI document, with CORS and rpcStatus errors for anything unknown.
 */
import express, { type Express } from "express";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Runtime } from "./runtime.js";
import { cors } from "./http/cors.js";
import { coordinatorRouter, sendError } from "./http/coordinator.js";
import { adminRouter, type AdminHooks } from "./admin/routes.js";
import { GrpcCode, TurnkeyError } from "./errors.js";
import { packageRoot } from "./package-root.js";
import { proxyRouter } from "./proxy/router.js";

let openApiDocument: string | undefined;
function openApiJson(): string {
  openApiDocument ??= readFileSync(join(packageRoot(), "contracts", "generated", "openapi.json"), "utf8");
  return openApiDocument;
}

export function createApp(rt: Runtime, hooks: AdminHooks): Express {
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");
  app.use(proxyRouter(rt)); // the auth proxy answers its own CORS, per configuration
  app.use(cors());
  app.get("/openapi.json", (_req, res) => {
    res.type("application/json").send(openApiJson().replace("http://127.0.0.1:8787", rt.urls.baseUrl));
  });
  app.use(adminRouter(rt, hooks));
  app.use(coordinatorRouter(rt));
  app.use((req, res) => {
    sendError(rt, res, new TurnkeyError(GrpcCode.NOT_FOUND, `Not Found: no operation at ${req.method} ${req.path}`));
  });
  return app;
}
