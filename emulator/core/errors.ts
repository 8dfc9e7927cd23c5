/**
 * The service's error model: a gRPC status code, a message, and typed details,
 * rendered on the wire as an `rpcStatus` body `{code, message, details}` with the
 * grpc-gateway HTTP status that matches the code.
 */
import { DOCUMENTED_ERRORS, documentedMessage, type DocumentedErrorKey } from "./error-catalogue.js";
import { isInputError, joinPath, withoutQuotedHeads, type InputError } from "./input-error.js";

export const GrpcCode = {
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
} as const;
export type GrpcCode = (typeof GrpcCode)[keyof typeof GrpcCode];

/** grpc-gateway's mapping from gRPC code to HTTP status. */
const HTTP_STATUS: Record<number, number> = {
  0: 200,
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

export function httpStatusFor(code: number): number {
  return HTTP_STATUS[code] ?? 500;
}

export type ErrorDetail = { "@type": string; [k: string]: unknown };

export class TurnkeyError extends Error {
  readonly code: number;
  readonly details: ErrorDetail[];
  constructor(code: number, message: string, details: ErrorDetail[] = []) {
    super(message);
    this.name = "TurnkeyError";
    this.code = code;
    this.details = details;
  }
  get httpStatus(): number {
    return httpStatusFor(this.code);
  }
  toJSON(): RpcStatus {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export type RpcStatus = { code: number; message: string; details: ErrorDetail[] };

export const turnkeyErrorDetail = (turnkeyErrorCode: string): ErrorDetail => ({
  "@type": "type.googleapis.com/errors.v1.TurnkeyErrorDetail",
  turnkeyErrorCode,
});

/** A field violation; a bad value the description quotes at length (input-error.ts `quote`) keeps only its length there: the message carries its head. */
export const badRequestDetail = (field: string, description: string): ErrorDetail => ({
  "@type": "type.googleapis.com/google.rpc.BadRequest",
  fieldViolations: [{ field, description: withoutQuotedHeads(description) }],
});

/** 400. `field` names the offending request field (dotted path) when there is one. */
export function invalidArgument(message: string, field?: string, turnkeyErrorCode = "REQUEST_INVALID"): TurnkeyError {
  const details: ErrorDetail[] = [turnkeyErrorDetail(turnkeyErrorCode)];
  if (field) details.push(badRequestDetail(field, message));
  return new TurnkeyError(GrpcCode.INVALID_ARGUMENT, message, details);
}

/**
 * An error of the documented catalogue (error-catalogue.ts): its message (then `: detail`), gRPC
 * code and turnkeyErrorCode; `field` (a 400's offending request field) adds the field violation.
 */
export function documentedError(key: DocumentedErrorKey, detail?: string, field?: string): TurnkeyError {
  const e = DOCUMENTED_ERRORS[key];
  const message = documentedMessage(key, detail);
  const details: ErrorDetail[] = [turnkeyErrorDetail(e.turnkeyErrorCode)];
  if (field) details.push(badRequestDetail(field, message));
  return new TurnkeyError(e.grpcCode, message, details);
}

export function unauthenticated(message: string, turnkeyErrorCode = "UNAUTHENTICATED"): TurnkeyError {
  return new TurnkeyError(GrpcCode.UNAUTHENTICATED, message, [turnkeyErrorDetail(turnkeyErrorCode)]);
}

export function permissionDenied(message: string, turnkeyErrorCode = "REQUEST_NOT_AUTHORIZED"): TurnkeyError {
  return new TurnkeyError(GrpcCode.PERMISSION_DENIED, message, [turnkeyErrorDetail(turnkeyErrorCode)]);
}

export function notFound(message: string, turnkeyErrorCode = "UNSPECIFIED"): TurnkeyError {
  return new TurnkeyError(GrpcCode.NOT_FOUND, message, [turnkeyErrorDetail(turnkeyErrorCode)]);
}

export function resourceExhausted(message: string): TurnkeyError {
  return new TurnkeyError(GrpcCode.RESOURCE_EXHAUSTED, message, [turnkeyErrorDetail("RATE_LIMIT_EXCEEDED")]);
}

/** 501: a routed operation the emulator does not emulate (yet). Says so plainly. */
export function unimplemented(message: string): TurnkeyError {
  return new TurnkeyError(GrpcCode.UNIMPLEMENTED, message, []);
}

export function internal(message: string): TurnkeyError {
  return new TurnkeyError(GrpcCode.INTERNAL, message, [turnkeyErrorDetail("INTERNAL")]);
}

export function isTurnkeyError(e: unknown): e is TurnkeyError {
  return e instanceof TurnkeyError;
}

/**
 * The wire error for library code's InputError, its relative path rooted at `root` (the
 * request field the caller handed to the library): 400 naming the field, 404, or 401.
 */
export function wireErrorOf(e: InputError, root?: string): TurnkeyError {
  if (e.documented) {
    const field = joinPath(root, e.path);
    const err = documentedError(e.documented, undefined, field);
    return new TurnkeyError(err.code, e.message, field ? [err.details[0]!, badRequestDetail(field, e.message)] : err.details);
  }
  switch (e.kind) {
    case "not_found":
      return notFound(e.message);
    case "unauthenticated":
      return unauthenticated(e.message);
    case "invalid":
      return invalidArgument(e.message, joinPath(root, e.path));
  }
}

/**
 * The request boundary for library code: runs `fn` (sync or async) and turns an InputError it
 * throws into the wire error naming `root` + the error's relative path. Anything else passes
 * through unchanged.
 */
export function withField<T>(root: string | undefined, fn: () => T): T {
  const map = (e: unknown): never => {
    throw isInputError(e) ? wireErrorOf(e, root) : e;
  };
  try {
    const r = fn();
    return (r instanceof Promise ? r.catch(map) : r) as T;
  } catch (e) {
    return map(e);
  }
}
