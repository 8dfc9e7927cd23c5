/**
 * Every failure leaves as an rpcStatus body `{code, message, details}` with the matching
 * HTTP status, whatever raised it: our own TurnkeyErrors, the body reader (size limit,
 * Content-Encoding, charset, malformed JSON), express's router, or a bug (500 with an id;
 * the stack goes to the log, never to the client).
 */
import type { ErrorRequestHandler, Response } from "express";
import { randomUUID } from "node:crypto";
import { badRequestDetail, GrpcCode, isTurnkeyError, turnkeyErrorDetail, TurnkeyError, wireErrorOf, type RpcStatus } from "../errors.js";
import { DOCUMENTED_ERRORS, documentedMessage } from "../error-catalogue.js";
import { isInputError, quote } from "../input-error.js";
import { sendErrorAnswer } from "./request-facts.js";

/**
 * A TurnkeyError whose HTTP status is not the gRPC code's usual one: the transport-level
 * refusals (413 body too large, 415 unsupported encoding) that HTTP has its own status for.
 */
export class TransportError extends TurnkeyError {
  constructor(
    code: number,
    message: string,
    private readonly status: number,
  ) {
    super(code, message, [turnkeyErrorDetail("REQUEST_INVALID"), badRequestDetail("body", message)]);
  }
  override get httpStatus(): number {
    return this.status;
  }
}

type HttpLikeError = { status?: unknown; statusCode?: unknown; type?: unknown; expose?: unknown; message?: unknown; limit?: unknown; encoding?: unknown; charset?: unknown };

/** The body reader's and router's client errors (http-errors objects) as TurnkeyErrors; undefined for anything else. */
function fromClientError(err: unknown): TurnkeyError | undefined {
  if (!err || typeof err !== "object") return undefined;
  const e = err as HttpLikeError;
  const status = typeof e.status === "number" ? e.status : typeof e.statusCode === "number" ? e.statusCode : undefined;
  if (status === undefined || status < 400 || status >= 500) return undefined;
  const detail = typeof e.message === "string" ? firstLine(e.message) : "";
  switch (e.type) {
    case "entity.too.large":
      return new TransportError(
        GrpcCode.RESOURCE_EXHAUSTED,
        `request body too large: the limit is ${typeof e.limit === "number" ? e.limit : "exceeded"} bytes`,
        413,
      );
    case "encoding.unsupported":
      return new TransportError(
        GrpcCode.INVALID_ARGUMENT,
        `unsupported Content-Encoding ${quote(String(e.encoding ?? ""))}: send the body as identity, gzip, deflate or br`,
        415,
      );
    case "charset.unsupported":
      return new TransportError(GrpcCode.INVALID_ARGUMENT, `unsupported charset ${quote(String(e.charset ?? ""))}: send the body as UTF-8`, 415);
    case "entity.parse.failed":
      return new TransportError(GrpcCode.INVALID_ARGUMENT, documentedMessage("BAD_REQUEST_BODY", `it is not valid JSON: ${detail}`), 400);
    case "request.aborted":
    case "request.size.invalid":
      return new TransportError(GrpcCode.INVALID_ARGUMENT, `request body incomplete: ${detail}`, 400);
  }
  // A body that does not decode under its Content-Encoding: zlib's error (a string code and an errno), given a 400 status by the reader.
  if (typeof (e as { code?: unknown }).code === "string" && typeof (e as { errno?: unknown }).errno === "number") {
    return new TransportError(GrpcCode.INVALID_ARGUMENT, `request body does not decode under its Content-Encoding: ${detail}`, 400);
  }
  const code = status === 401 ? GrpcCode.UNAUTHENTICATED : status === 403 ? GrpcCode.PERMISSION_DENIED : status === 404 ? GrpcCode.NOT_FOUND : GrpcCode.INVALID_ARGUMENT;
  return new TransportError(code, e.expose === true && detail ? detail : `bad request (HTTP ${status})`, status);
}

const firstLine = (s: string) => s.split("\n")[0]!.slice(0, 500);

export function toRpcError(err: unknown): TurnkeyError {
  if (isTurnkeyError(err)) return err;
  // Library code's bad-input error that no request boundary mapped: still the client's fault (400 / 404 / 401), its path as the field.
  if (isInputError(err)) return wireErrorOf(err);
  const client = fromClientError(err);
  if (client) return client;
  // SQLite's "database or disk is full": a state loaded from an image is held whole in memory and capped at 1 GiB (families/control/snapshots.ts); a file, or the default temporary database, by its disk.
  if ((err as { code?: unknown } | null)?.code === "SQLITE_FULL") {
    return new TurnkeyError(GrpcCode.RESOURCE_EXHAUSTED, "the emulator's database is full (a state loaded from a snapshot or a state file is held in memory, capped at 1 GiB; otherwise the disk of its temporary or --db file is): reset it (POST /emulator/v1/reset), or start the emulator with --db FILE on a disk with room");
  }
  const id = randomUUID();
  // Log the failure (never a request body: it may carry secrets) so it can be matched up.
  console.error(`[emulator] internal error ${id}:`, err instanceof Error ? err.stack ?? err.message : err);
  // The service writes the error id in parentheses (errors.mdx:858), not as a `: detail`.
  const documented = DOCUMENTED_ERRORS.INTERNAL_SERVER_ERROR;
  return new TurnkeyError(documented.grpcCode, `${documented.message} (${id})`, [turnkeyErrorDetail(documented.turnkeyErrorCode)]);
}

export function sendRpcError(res: Response, err: unknown): void {
  const e = toRpcError(err);
  const body: RpcStatus = e.toJSON();
  sendErrorAnswer(res, e.httpStatus, body);
}

/**
 * Express's last error handler: whatever reached `next(err)` answers as an rpcStatus.
 * `check` may refuse the body (a contract check); its error is sent instead.
 */
export function rpcErrorHandler(check?: (e: TurnkeyError) => void): ErrorRequestHandler {
  return (err, _req, res, _next) => {
    if (res.headersSent) {
      // Too late for a status: end the response rather than leave it hanging.
      res.destroy();
      return;
    }
    let e = toRpcError(err);
    try {
      check?.(e);
    } catch (violation) {
      e = toRpcError(violation);
    }
    sendErrorAnswer(res, e.httpStatus, e.toJSON());
  };
}
