/**
 * The coordinator surface: POST /public/v1/submit/<op> and /public/v1/query/<op>.
 * Raw body -> stamp verification -> contract validation -> caller resolution -> activity
 * engine or query handler -> contract-checked response.
 */
import { Router, type Request, type Response } from "express";
import { coordinator, coordinatorSchemas, parseRequest, type OperationContract } from "../../contracts/index.js";
import { legacyVariant } from "../../contracts/legacy.js";
import { GrpcCode, TurnkeyError, unimplemented } from "../errors.js";
import type { Runtime } from "../runtime.js";
import { resolveCaller, targetOrganization, verifyStamp } from "../auth/authenticate.js";
import { submitActivity } from "../activities/engine.js";
import { queryHandlers } from "../queries/index.js";
import { renderActivity } from "../views/activity.js";
import { bodyBytes, parseJsonObject, rawBody } from "./body.js";
import { sendRpcError } from "./errors.js";
import { conformingBody } from "./contract-check.js";

export function coordinatorRouter(rt: Runtime): Router {
  const router = Router();
  router.all(/^\/public\/v1\/(submit|query)\/[^/]+$/, rawBody, async (req: Request, res: Response) => {
    const op = coordinator[req.path];
    try {
      if (!op) throw new TurnkeyError(GrpcCode.NOT_FOUND, `Not Found: no operation at ${req.path}`);
      if (req.method !== "POST") throw new TurnkeyError(GrpcCode.UNIMPLEMENTED, `Method Not Allowed: ${req.method} ${req.path} (use POST)`);
      const payload = await handle(rt, op, req);
      res.status(200).json(conformingBody(rt.validateResponses, op.response, op.responseName, req.path, payload));
    } catch (err) {
      sendError(rt, res, err);
    }
  });
  return router;
}

async function handle(rt: Runtime, op: OperationContract, req: Request): Promise<unknown> {
  const raw = bodyBytes(req.body);
  const stamp = verifyStamp(req.headers, raw);
  const json = parseJsonObject(raw);
  if (op.kind === "submit" && typeof json.type === "string" && json.type !== op.activityType) op = legacyVariant(req.path, op, json.type) ?? op;
  const body = parseRequest(op.request, json) as Record<string, unknown>;
  const target = targetOrganization(rt, body.organizationId);
  const caller = resolveCaller(rt, stamp, target);
  if (op.kind === "submit") {
    const activity = await submitActivity(rt, { op, body: body as never, rawBody: raw, caller, target });
    return { activity: renderActivity(rt.store, activity) };
  }
  const query = queryHandlers[op.name];
  if (!query) throw unimplemented(`${op.name} is routed but not emulated yet`);
  return query({ rt, now: rt.clock.now(), org: target, caller }, body);
}

export function sendError(rt: Runtime, res: Response, err: unknown): void {
  if (rt.validateResponses && err instanceof TurnkeyError) {
    conformingBody(true, coordinatorSchemas.rpcStatus, "rpcStatus", "error response", err.toJSON());
  }
  sendRpcError(res, err);
}
