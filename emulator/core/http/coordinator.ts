/**
 * The coordinator surface: POST /public/v1/submit/<op> and /public/v1/query/<op>.
 * Raw body -> stamp verification -> contract validation -> caller resolution -> tenant
 * isolation -> activity engine or query handler (both from the operation registry) ->
 * contract-checked response.
 */
import type { RequestHandler, Response } from "express";
import { coordinator, coordinatorSchemas, parseRequest, type OperationContract } from "../../../contracts/index.js";
import { TurnkeyError } from "../errors.js";
import type { Runtime } from "../runtime.js";
import { resolveCaller, targetOrganization, verifyStamp, type VerifiedStamp } from "../auth/authenticate.js";
import type { Credential } from "../auth/caller.js";
import { organizationServed, OWN_ORGANIZATION_ONLY } from "../auth/access.js";
import { submitActivity } from "../engine/engine.js";
import { notEmulatedError } from "../vocabulary/not-emulated.js";
import type { ActivityEntry, QueryEntry } from "../vocabulary/define.js";
import { renderActivity } from "../views/activity.js";
import { sendRpcError } from "./errors.js";
import { noteRequest, noteActivityType, requestInstant } from "./request-facts.js";
import { checkRequestLimits } from "../../limits/request-limits.js";
import { conformingBody } from "./contract-check.js";
import { operationHandler, type Surface } from "./pipeline.js";
import { othersInFlight } from "./serving.js";

/** The coordinator's steps in the shared pipeline: a stamp admits the request. */
function coordinatorSurface(): Surface<VerifiedStamp> {
  /** This router's requests between admission and their answer (an app without a Serving counts only these); one count per instance. */
  let admitting = 0;
  return {
    paths: /^\/public\/v1\/(submit|query)\/[^/]+$/,
    operation: (path) => coordinator[path],
    errorSchema: coordinatorSchemas.rpcStatus,
    admit: (rt, op, req, res, raw) => {
      // With other requests open on the server or admitted here, the signature is checked on the thread pool meanwhile.
      admitting++;
      res.once("close", () => admitting--);
      // A query may be read with a read-only session (X-Session) instead of a stamp; an activity never.
      return verifyStamp(req.headers, raw, { offThread: admitting > 1 || othersInFlight(rt.serving), readOnlySession: op.kind === "query" });
    },
    run: (rt, op, stamp, json, raw, res) => (op.kind === "submit" ? submit(rt, op, stamp, json, raw, res) : query(rt, op, stamp, json, res)),
  };
}

export function coordinatorHandler(rt: Runtime): RequestHandler {
  return operationHandler(rt, coordinatorSurface());
}

async function submit(rt: Runtime, routed: OperationContract, stamp: VerifiedStamp, json: Record<string, unknown>, raw: Buffer, res: Response): Promise<unknown> {
  const { op, entry, accepted } = rt.registry.resolveActivity(routed, json.type);
  if (accepted && op.activityType) noteActivityType(res, op.activityType);
  const body = parseRequest(op.request, json) as Record<string, unknown>;
  // One instant for the whole submission: the key's expiry, liveness, the activity's times and its policies.
  const now = requestInstant(rt.clock, res);
  const { caller, org } = admitTo(rt, op, stamp, body, res, entry, now);
  if (!entry) throw notEmulatedError(op, rt.registry.notEmulatedReason(op.name));
  const activity = await submitActivity(rt, { op, entry, body: body as never, rawBody: raw, asksAppProofs: rt.hooks.asksAppProofs(body, json), caller, target: org, now });
  return { activity: renderActivity(rt, activity) };
}

function query(rt: Runtime, op: OperationContract, stamp: VerifiedStamp, json: Record<string, unknown>, res: Response): unknown {
  const body = parseRequest(op.request, json) as Record<string, unknown>;
  const entry = rt.registry.queries.get(op.name);
  const now = requestInstant(rt.clock, res);
  const { caller, org } = admitTo(rt, op, stamp, body, res, entry, now);
  if (!entry) throw notEmulatedError(op, rt.registry.notEmulatedReason(op.name));
  return entry.run({ rt, now, org, caller }, body);
}

/**
 * After the contract: the request's limits, its target organization, its caller, and the
 * organization it is served in (tenant isolation with the entry's reach, auth/access.ts). An
 * operation that is not emulated (no entry) is still checked, so that it answers 501 only to a
 * caller who may reach it.
 */
function admitTo(rt: Runtime, op: OperationContract, stamp: VerifiedStamp, body: Record<string, unknown>, res: Response, entry: ActivityEntry | QueryEntry | undefined, now: number) {
  const reach = entry?.reach ?? OWN_ORGANIZATION_ONLY;
  checkRequestLimits(op.name, body, entry?.arrayLimits);
  const target = targetOrganization(rt, body.organizationId);
  const caller = resolveCaller(rt, stamp, target, now);
  rt.hooks.admit(rt, caller, res.req); // e.g. the IP allowlist
  const org = organizationServed(caller, target, { kind: op.kind === "submit" ? "submit" : "query", reach });
  noteRequest(res, { organizationId: org.id, userId: caller.user.id, credential: credentialLabel(caller.credential) });
  return { caller, org };
}

/** What the request log names a credential by: a passkey's id, a key's public key; never a session string. */
const credentialLabel = (c: Credential): string => (c.kind === "authenticator" ? c.id : c.kind === "read_only_session" ? "X-Session" : c.publicKey);

export function sendError(rt: Runtime, res: Response, err: unknown): void {
  if (rt.validateResponses && err instanceof TurnkeyError) {
    conformingBody(true, coordinatorSchemas.rpcStatus, "rpcStatus", "error response", err.toJSON());
  }
  sendRpcError(res, err);
}
