/**
 * `/emulator/v1/faults` (add, list, clear, delete one) and the middleware that applies them
 * (and the optional rate limit) in front of the coordinator and the auth proxy.
 */
import { Router, type NextFunction, type Request, type Response } from "express";
import { setTimeout as sleep } from "node:timers/promises";
import { GrpcCode, TurnkeyError, turnkeyErrorDetail } from "../errors.js";
import { rawBody } from "../http/body.js";
import { sendRpcError } from "../http/errors.js";
import type { Runtime } from "../runtime.js";
import { operationOf, parseFault, RATE_LIMIT_MESSAGE, type Fault } from "./faults.js";
import { handle, jsonOf, readBody } from "./http.js";
import { organizationOf } from "./request-log-routes.js";

const view = (f: Fault) => ({
  id: f.id,
  operation: f.operation,
  remaining: f.remaining,
  until: f.until === null ? null : new Date(f.until).toISOString(),
  latencyMs: f.latencyMs,
  error: f.error,
  drop: f.drop,
  status429: f.status429,
  hits: f.hits,
});

export function faultRouter(rt: Runtime): Router {
  const router = Router();
  const { faults } = rt.control;
  router.post(
    "/emulator/v1/faults",
    readBody,
    handle((req, res) => {
      res.json({ id: faults.add(parseFault(jsonOf(req), rt.clock.now())).id });
    }),
  );
  router.get("/emulator/v1/faults", (_req, res) => {
    res.json({ faults: faults.list(rt.clock.now()).map(view) });
  });
  router.delete("/emulator/v1/faults", (_req, res) => {
    res.json({ cleared: faults.clear() });
  });
  router.delete(
    "/emulator/v1/faults/:id",
    handle((req, res) => {
      res.json({ deleted: view(faults.delete(String(req.params.id))) });
    }),
  );
  return router;
}

const tooMany = () => new TurnkeyError(GrpcCode.RESOURCE_EXHAUSTED, RATE_LIMIT_MESSAGE, [turnkeyErrorDetail("RATE_LIMIT_EXCEEDED")]);

/** Applies the first matching fault to a request of the service (never to a CORS preflight). */
export function faultMiddleware(rt: Runtime) {
  const { faults } = rt.control;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const fault = req.method === "OPTIONS" ? undefined : faults.take(req.path, rt.clock.now());
    if (!fault) return next();
    if (fault.latencyMs) await sleep(fault.latencyMs);
    if (fault.drop) {
      req.socket.destroy();
      return;
    }
    if (fault.status429) {
      res.setHeader("Retry-After", String(fault.status429.retryAfterSeconds));
      return sendRpcError(res, tooMany());
    }
    if (fault.error) return sendRpcError(res, new TurnkeyError(fault.error.code, fault.error.message, []));
    next();
  };
}

/** The per-organization rate limit, when enabled: the `ratelimit-*` headers on every answer, 429 past the limit. */
export function rateLimitMiddleware(rt: Runtime) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const limiter = rt.control.rateLimiter;
    if (!limiter || req.method === "OPTIONS" || operationOf(req.path) === null) return next();
    // Read the body now (the pipeline keeps it as read) to learn the organization.
    rawBody(req, res, (err?: unknown) => {
      if (err) return next();
      const configId = req.headers["x-auth-proxy-config-id"];
      const key = organizationOf(req.body) ?? (typeof configId === "string" ? `proxy:${configId}` : null);
      if (!key) return next();
      const d = limiter.hit(key);
      res.setHeader("ratelimit-limit", String(d.limit));
      res.setHeader("ratelimit-remaining", String(d.remaining));
      res.setHeader("x-rate-limit-request-remote-addr", req.socket.remoteAddress ?? "");
      const forwarded = req.headers["x-forwarded-for"];
      res.setHeader("x-rate-limit-request-forwarded-for", (Array.isArray(forwarded) ? forwarded[0] : forwarded) ?? "");
      if (!d.allowed) return sendRpcError(res, tooMany());
      next();
    });
  };
}
