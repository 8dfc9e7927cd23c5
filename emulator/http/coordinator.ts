/**
 * The coordinator surface: POST /public/v1/submit/<op> and /public/v1/query/<op>.
 * Raw body -> stamp verification -> contract validation -> caller resolution -> tenant
 * isolation -> activity engine or query handler (both from the operation registry) ->
 * contract-checked response.
 */
import { Router, type Request, type Response } from "express";
import { coordinator, coordinatorSchemas, parseRequest, type OperationContract } from "../../contracts/index.js";
import { legacyVariant } from "../../contracts/legacy.js";
import { GrpcCode, TurnkeyError } from "../errors.js";
import type { Runtime } from "../runtime.js";
import { resolveCaller, targetOrganization, verifyStamp } from "../auth/authenticate.js";
import { organizationServed, OWN_ORGANIZATION_ONLY } from "../auth/access.js";
import { submitActivity } from "../activities/engine.js";
import { activities, queries } from "../operations/registry.js";
import { notEmulated } from "../operations/not-emulated.js";
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
  if (op.kind === "submit") {
    const entry = activities.get(op.name);
    if (entry && typeof json.type === "string" && json.type !== op.activityType) op = legacyVariant(op, json.type, entry.legacy) ?? op;
    const body = parseRequest(op.request, json) as Record<string, unknown>;
    const target = targetOrganization(rt, body.organizationId);
    const caller = resolveCaller(rt, stamp, target);
    const served = organizationServed(caller, target, { kind: "submit", reach: entry?.reach ?? OWN_ORGANIZATION_ONLY });
    if (!entry) throw notEmulated(op);
    const activity = await submitActivity(rt, { op, entry, body: body as never, rawBody: raw, caller, target: served });
    return { activity: renderActivity(rt.store, activity) };
  }
  const body = parseRequest(op.request, json) as Record<string, unknown>;
  const entry = queries.get(op.name);
  const target = targetOrganization(rt, body.organizationId);
  const caller = resolveCaller(rt, stamp, target);
  const org = organizationServed(caller, target, { kind: "query", reach: entry?.reach ?? OWN_ORGANIZATION_ONLY });
  if (!entry) throw notEmulated(op);
  return entry.run({ rt, now: rt.clock.now(), org, caller }, body);
}

export function sendError(rt: Runtime, res: Response, err: unknown): void {
  if (rt.validateResponses && err instanceof TurnkeyError) {
    conformingBody(true, coordinatorSchemas.rpcStatus, "rpcStatus", "error response", err.toJSON());
  }
  sendRpcError(res, err);
}
