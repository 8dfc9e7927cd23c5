/**
 * One request pipeline for every published operation, on both surfaces (the coordinator's
 * `/public/v1/...` and the auth proxy's `/v1/...`): find the operation, POST only, keep the
 * raw body (stamps sign its exact bytes), admit the request (stamp, or config id and
 * origin), read the JSON object, run, and answer with a contract-checked body or an
 * rpcStatus error. Each surface supplies only its own steps.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { z } from "zod";
import type { OperationContract } from "../../../contracts/index.js";
import { GrpcCode, TurnkeyError } from "../errors.js";
import type { Runtime } from "../runtime.js";
import { parseJsonObject, readBody } from "./body.js";
import { conformingBody } from "./contract-check.js";
import { sendRpcError } from "./errors.js";
import { sendAnswer } from "./request-facts.js";

export type Surface<Admitted> = {
  /** Which paths the surface serves. */
  paths: RegExp;
  /** The operation at a path; undefined passes the request on (`next()`). */
  operation(path: string): OperationContract | undefined;
  /** The surface's error schema (an rpcStatus), checked on every error it sends. */
  errorSchema: z.ZodType;
  /** Admits the request before its body is parsed: stamp, config id, origin. */
  admit(rt: Runtime, op: OperationContract, req: Request, res: Response, raw: Buffer): Admitted | Promise<Admitted>;
  /** Whether an empty body stands for `{}`. */
  emptyBody?(op: OperationContract): boolean;
  /** Runs the operation; returns the response body. `res` is for noting what was learned (request-facts.ts). */
  run(rt: Runtime, op: OperationContract, admitted: Admitted, json: Record<string, unknown>, raw: Buffer, res: Response): Promise<unknown> | unknown;
};

/**
 * The surface as one handler of the app (not a Router: a request for another path passes on
 * at once, without entering a router whose end would resume the app on a later turn).
 */
export function operationHandler<A>(rt: Runtime, surface: Surface<A>): RequestHandler {
  const fail = (res: Response, err: unknown) => {
    if (rt.validateResponses && err instanceof TurnkeyError) conformingBody(true, surface.errorSchema, "rpcStatus", "error response", err.toJSON());
    sendRpcError(res, err);
  };
  const serve = async (op: OperationContract, req: Request, res: Response) => {
    try {
      if (req.method !== "POST") throw new TurnkeyError(GrpcCode.UNIMPLEMENTED, `Method Not Allowed: ${req.method} ${req.path} (use POST)`);
      // Read here rather than as middleware, so that the reader's refusals (size, encoding)
      // leave through the surface's own error path (contract-checked error schema).
      const raw = await readBody(req, res);
      const admitted = await surface.admit(rt, op, req, res, raw);
      const json = parseJsonObject(raw, surface.emptyBody?.(op) ?? false);
      const payload = await surface.run(rt, op, admitted, json, raw, res);
      sendAnswer(res, conformingBody(rt.validateResponses, op.response, op.responseName, req.path, payload));
    } catch (err) {
      fail(res, err);
    }
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const op = surface.paths.test(req.path) ? surface.operation(req.path) : undefined;
    if (op) void serve(op, req, res);
    else next();
  };
}
