/**
 * `GET /emulator/v1/requests` and the middleware that records (and with `--log` prints)
 * every request to the emulated service. It reads the organization from the request body
 * the pipeline already holds and the activity id from the response it sends; it never
 * copies a body or a stamp.
 */
import { Router, type NextFunction, type Request, type Response } from "express";
import type { Runtime } from "../../core/runtime.js";
import { handle } from "../../core/http/control-routes.js";
import { formatRequestLine, keyPrefix, parseRequestFilter, stampKey, type RequestRecord } from "./request-log.js";
import { answerOf, requestFacts, requestInstant } from "../../core/http/request-facts.js";
import { fieldOf } from "../../../contracts/proto-json.js";

export function requestLogRouter(rt: Runtime): Router {
  const router = Router();
  router.get(
    "/emulator/v1/requests",
    handle((req, res) => {
      res.json({ requests: rt.families.control.requests.query(parseRequestFilter(req.query as Record<string, unknown>)) });
    }),
  );
  router.delete("/emulator/v1/requests", (_req, res) => {
    rt.families.control.requests.clear();
    res.json({ cleared: true });
  });
  return router;
}

const PARSE_LIMIT = 64 * 1024;

/** The top-level organizationId of a JSON request body (a Buffer), under either name protobuf's JSON mapping accepts, if any. */
export function organizationOf(body: unknown): string | null {
  if (!Buffer.isBuffer(body) || body.length === 0) return null;
  if (body.length <= PARSE_LIMIT) {
    try {
      const v = fieldOf(JSON.parse(body.toString("utf8")), "organizationId");
      return typeof v === "string" ? v : null;
    } catch {
      return null;
    }
  }
  return /"(?:organizationId|organization_id)"\s*:\s*"([^"\\]{1,100})"/.exec(body.subarray(0, 4096).toString("utf8"))?.[1] ?? null;
}

type Answer = { activity?: { id?: unknown; organizationId?: unknown }; organizationId?: unknown; code?: unknown; details?: { turnkeyErrorCode?: unknown }[] };

export function requestLogMiddleware(rt: Runtime) {
  const state = rt.families.control;
  return (req: Request, res: Response, next: NextFunction): void => {
    if (req.path.startsWith("/emulator/") || req.path === "/openapi.json") return next();
    const started = performance.now();
    const atMs = requestInstant(rt.clock, res);
    res.once("close", () => {
      // What the pipeline or the error path sent (core/http/request-facts.ts), kept, not parsed back.
      const answer = answerOf(res) as Answer | undefined;
      const status = res.writableFinished ? res.statusCode : 0;
      const isError = status >= 400 && typeof answer?.code === "number";
      // What the pipeline resolved, when it got that far; otherwise (refused early) read it from the request.
      const facts = requestFacts(res);
      const key = facts ? facts.credential : stampKey(req.headers);
      const record = state.requests.add({
        at: new Date(atMs).toISOString(),
        atMs,
        method: req.method,
        path: req.path,
        organizationId: facts?.organizationId ?? str(answer?.activity?.organizationId) ?? organizationOf(req.body) ?? str(answer?.organizationId),
        caller: key ? { userId: facts ? facts.userId : userOf(rt, key), key: keyPrefix(key) } : null,
        status,
        latencyMs: Math.round((performance.now() - started) * 100) / 100,
        activityId: str(answer?.activity?.id),
        errorCode: isError ? (answer!.code as number) : null,
        turnkeyErrorCode: isError ? (answer!.details?.map((d) => str(d?.turnkeyErrorCode)).find((c) => c) ?? null) : null,
      });
      state.printLine?.(formatRequestLine(record));
    });
    next();
  };
}

const str = (v: unknown): string | null => (typeof v === "string" && v ? v : null);

/** The user an API key belongs to, when exactly one user holds it. */
function userOf(rt: Runtime, publicKey: string): string | null {
  try {
    const users = new Set(rt.store.apiKeys.byPublicKeyAnywhere(publicKey).map((k) => k.userId));
    return users.size === 1 ? [...users][0]! : null;
  } catch {
    return null;
  }
}

export type { RequestRecord };
