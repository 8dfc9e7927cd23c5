/** Every failure leaves as an rpcStatus body with the matching HTTP status. */
import type { Response } from "express";
import { randomUUID } from "node:crypto";
import { GrpcCode, isTurnkeyError, TurnkeyError, type RpcStatus } from "../errors.js";

export function toRpcError(err: unknown): TurnkeyError {
  if (isTurnkeyError(err)) return err;
  const id = randomUUID();
  // Log the failure (never a request body: it may carry secrets) so it can be matched up.
  console.error(`[emulator] internal error ${id}:`, err instanceof Error ? err.stack ?? err.message : err);
  return new TurnkeyError(GrpcCode.INTERNAL, `internal server error (${id})`);
}

export function sendRpcError(res: Response, err: unknown): void {
  const e = toRpcError(err);
  const body: RpcStatus = e.toJSON();
  res.status(e.httpStatus).json(body);
}
