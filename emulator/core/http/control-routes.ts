/**
 * What every control route shares: a JSON object body (an empty body reads as `{}`) and
 * failures answered as rpcStatus bodies, like the emulated service's own errors.
 */
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { bodyBytes, parseJsonObject, rawBody } from "./body.js";
import { sendRpcError } from "./errors.js";
import { invalidArgument } from "../errors.js";

/** Runs a control route: `fn` answers, or throws a TurnkeyError that leaves as an rpcStatus. */
export function handle(fn: (req: Request, res: Response) => void | Promise<void>): RequestHandler {
  return async (req, res) => {
    try {
      await fn(req, res);
    } catch (err) {
      sendRpcError(res, err);
    }
  };
}

/** Runs a body parser, answering its failures (too large, unreadable) as a 400 naming `body`. */
export function bodyOf(parser: RequestHandler): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => parser(req, res, (err?: unknown) => (err ? sendRpcError(res, bodyError(err)) : next()));
}

/** Reads the raw body as the coordinator does. */
export const readBody = bodyOf(rawBody);

/** The request's JSON object body; `{}` when empty. */
export function jsonOf(req: Request): Record<string, unknown> {
  return parseJsonObject(bodyBytes(req.body), true);
}

function bodyError(err: unknown): unknown {
  const e = err as { type?: string; message?: string };
  if (e?.type === "entity.too.large") return invalidArgument(`request body too large: ${e.message}`, "body");
  if (e?.type) return invalidArgument(`unreadable request body: ${e.message}`, "body");
  return err;
}
