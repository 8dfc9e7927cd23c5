/**
 * Coverage over HTTP: the middleware that counts each call of a published operation when its
 * answer has left (both surfaces, whatever answered it: the pipeline, an injected fault, the
 * rate limiter), and the control routes:
 *
 *   GET    /emulator/v1/coverage              the report (report.ts) as JSON
 *   GET    /emulator/v1/coverage?format=text  the readable summary
 *   DELETE /emulator/v1/coverage              starts counting again
 */
import { Router, type NextFunction, type Request, type Response } from "express";
import { coordinator, proxy } from "../../../contracts/index.js";
import { GrpcCode } from "../../core/errors.js";
import type { Runtime } from "../../core/runtime.js";
import { activityTypeOf, answerOf } from "../../core/http/request-facts.js";
import type { Registry } from "../../core/vocabulary/define.js";
import type { CoverageOutcome } from "./recorder.js";
import { coverageReport, coverageSummary, type CoverageReport, type PublishedOperation } from "./report.js";

/** Every operation the published documents route, with whether this emulator runs it. */
export function publishedOperations(registry: Registry): PublishedOperation[] {
  const coordinatorOps = Object.entries(coordinator).map(([path, op]) => ({ surface: "coordinator" as const, kind: op.kind, name: op.name, path, emulated: !!registry.entryFor(op.kind, op.name) }));
  const proxyOps = Object.entries(proxy).map(([path, op]) => ({ surface: "auth proxy" as const, kind: op.kind, name: op.name, path, emulated: registry.endpoints.has(op.name) }));
  return [...coordinatorOps, ...proxyOps];
}

type Answer = { activity?: { status?: unknown }; code?: unknown } | undefined;

const ACTIVITY_OUTCOMES: Record<string, CoverageOutcome> = {
  ACTIVITY_STATUS_COMPLETED: "completed",
  ACTIVITY_STATUS_FAILED: "failed",
  ACTIVITY_STATUS_CONSENSUS_NEEDED: "consensus",
  ACTIVITY_STATUS_REJECTED: "rejected",
};

/** How a call ended, from its HTTP status and the body it was answered with. */
export function outcomeOf(kind: string, status: number, answer: Answer): CoverageOutcome {
  if (status === 501) return "unimplemented";
  if (status === 0 || status >= 400) return answer?.code === GrpcCode.PERMISSION_DENIED ? "denied" : "failed";
  if (kind !== "submit") return "completed";
  return ACTIVITY_OUTCOMES[String(answer?.activity?.status)] ?? "pending";
}

export function coverageMiddleware(rt: Runtime) {
  const served = (path: string) => coordinator[path] ?? (path.startsWith("/v1/") ? proxy[path] : undefined);
  return (req: Request, res: Response, next: NextFunction): void => {
    const op = req.method === "POST" ? served(req.path) : undefined;
    if (op) res.once("close", () => rt.families.coverage.recorder.call(req.path, activityTypeOf(res), outcomeOf(op.kind, res.writableFinished ? res.statusCode : 0, answerOf(res) as Answer)));
    next();
  };
}

/** The instance's report now (its policies' names looked up first). */
export function reportOf(rt: Runtime): CoverageReport {
  rt.families.coverage.recorder.learnNames(rt.store);
  return coverageReport(rt.families.coverage.recorder.counts(), publishedOperations(rt.registry));
}

export function coverageRouter(rt: Runtime): Router {
  const router = Router();
  router.get("/emulator/v1/coverage", (req, res) => {
    const report = reportOf(rt);
    if (req.query.format === "text") res.type("text/plain").send(coverageSummary(report));
    else res.json(report);
  });
  router.delete("/emulator/v1/coverage", (_req, res) => {
    rt.families.coverage.recorder.clear();
    res.json({ cleared: true });
  });
  return router;
}
