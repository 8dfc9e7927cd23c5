/**
 * `/emulator/v1/faults` (add, list, clear, delete one) and the middleware that applies them in
 * front of the coordinator and the auth proxy.
 */
import { Router, type NextFunction, type Request, type Response } from "express";
import { setTimeout as sleep } from "node:timers/promises";
import { TurnkeyError } from "../../core/errors.js";
import { sendRpcError } from "../../core/http/errors.js";
import type { Runtime } from "../../core/runtime.js";
import { parseFault, type Fault } from "./faults.js";
import { handle, jsonOf, readBody } from "../../core/http/control-routes.js";
import { requestInstant } from "../../core/http/request-facts.js";
import { tooManyRequests } from "./rate-limit.js";

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
  const { faults } = rt.families.control;
  router.post(
    "/emulator/v1/faults",
    readBody,
    handle((req, res) => {
      res.json({ id: faults.add(parseFault(jsonOf(req), rt.clock.now(), rt.random)).id });
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

/**
 * Applies the first matching fault to a request of the service. Its CORS headers are already
 * set and its preflight answered (core/http/cors.ts, mounted before: core/http/app.ts), so an injected answer
 * reaches a page as the service's would, and a fault never meets an `OPTIONS`.
 */
export function faultMiddleware(rt: Runtime) {
  const { faults } = rt.families.control;
  return async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    const fault = faults.take(req.path, requestInstant(rt.clock, res));
    if (!fault) return next();
    if (fault.latencyMs) await sleep(fault.latencyMs);
    if (fault.drop) {
      req.socket.destroy();
      return;
    }
    if (fault.status429) {
      res.setHeader("Retry-After", String(fault.status429.retryAfterSeconds));
      return sendRpcError(res, tooManyRequests());
    }
    if (fault.error) return sendRpcError(res, new TurnkeyError(fault.error.code, fault.error.message, []));
    next();
  };
}
