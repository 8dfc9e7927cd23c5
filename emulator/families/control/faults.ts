/**
 * Fault injection: make chosen operations fail on purpose, for the next N calls or for a
 * window of emulated time. A fault can add latency, then answer an rpcStatus error (any
 * gRPC code, with its HTTP status), answer 429 with Retry-After, or drop the connection.
 * An injected failure happens before the request reaches the service: nothing is written.
 */
import { coordinator, proxy } from "../../../contracts/index.js";
import { invalidArgument, notFound } from "../../core/errors.js";
import { createRandom, type Random } from "../../core/random.js";

const MAX_LATENCY_MS = 5 * 60_000;

export type Fault = {
  id: string;
  /** An operation name (`sign_raw_payload`), a request path (`/public/v1/query/whoami`) or `*` (every operation). */
  operation: string;
  /** Calls still to fail; null: no limit. */
  remaining: number | null;
  /** Emulated time (ms) after which the fault is over; null: no limit. */
  until: number | null;
  latencyMs: number;
  error: { code: number; message: string } | null;
  drop: boolean;
  status429: { retryAfterSeconds: number } | null;
  /** Calls it has failed so far. */
  hits: number;
};

const FIELDS = new Set(["operation", "count", "forMs", "error", "latencyMs", "drop", "status429"]);
const OPERATION_PATH = /^\/(?:public\/v1\/(submit|query)|v1)\/([^/]+)$/;

/** The kind and name of the operation a request path serves, if it is a path of the service's operations. */
export function operationAt(path: string): { kind: "submit" | "query" | "proxy"; name: string } | null {
  const m = OPERATION_PATH.exec(path);
  return m ? { kind: (m[1] as "submit" | "query" | undefined) ?? "proxy", name: m[2]! } : null;
}

/** The operation name a request path serves, if it is an operation of the service. */
export function operationOf(path: string): string | null {
  return operationAt(path)?.name ?? null;
}

const knownOperation = (name: string) =>
  [`/public/v1/submit/${name}`, `/public/v1/query/${name}`, `/v1/${name}`].some((p) => coordinator[p] || proxy[p]);

const wholeNumber = (v: unknown, field: string, min: number, max = Number.MAX_SAFE_INTEGER): number => {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < min || v > max) {
    throw invalidArgument(`${field} must be a whole number from ${min}${max < Number.MAX_SAFE_INTEGER ? ` to ${max}` : " up"}`, field);
  }
  return v;
};

const object = (v: unknown, field: string): Record<string, unknown> => {
  if (!v || typeof v !== "object" || Array.isArray(v)) throw invalidArgument(`${field} must be an object`, field);
  return v as Record<string, unknown>;
};

/** Reads a fault description; a 400 naming the field on anything malformed. */
export function parseFault(body: Record<string, unknown>, now: number, random: Pick<Random, "uuid"> = createRandom()): Fault {
  const extra = Object.keys(body).find((k) => !FIELDS.has(k));
  if (extra) throw invalidArgument(`unknown field ${extra}; a fault has ${[...FIELDS].join(", ")}`, extra);
  const op = body.operation;
  if (typeof op !== "string" || !op) throw invalidArgument("operation is required: an operation name such as sign_raw_payload, a request path, or *", "operation");
  if (op !== "*" && !op.startsWith("/") && !knownOperation(op)) throw invalidArgument(`operation ${op} is not an operation of the service`, "operation");

  const remaining = body.count === undefined ? null : wholeNumber(body.count, "count", 1);
  const until = body.forMs === undefined ? null : now + wholeNumber(body.forMs, "forMs", 1);
  const latencyMs = body.latencyMs === undefined ? 0 : wholeNumber(body.latencyMs, "latencyMs", 0, MAX_LATENCY_MS);

  let error: Fault["error"] = null;
  if (body.error !== undefined) {
    const e = object(body.error, "error");
    const code = wholeNumber(e.code, "error.code", 1, 16);
    if (e.message !== undefined && typeof e.message !== "string") throw invalidArgument("error.message must be a string", "error.message");
    error = { code, message: (e.message as string | undefined) ?? `injected fault (gRPC code ${code})` };
  }
  if (body.drop !== undefined && body.drop !== true) throw invalidArgument("drop must be true when given", "drop");
  const drop = body.drop === true;
  let status429: Fault["status429"] = null;
  if (body.status429 !== undefined) {
    const s = object(body.status429, "status429");
    status429 = { retryAfterSeconds: wholeNumber(s.retryAfterSeconds ?? 1, "status429.retryAfterSeconds", 0, 86_400) };
  }
  const outcomes = [error && "error", drop && "drop", status429 && "status429"].filter(Boolean);
  if (outcomes.length > 1) throw invalidArgument(`give at most one of error, drop and status429 (got ${outcomes.join(", ")})`, outcomes[1] as string);
  if (!outcomes.length && !latencyMs) throw invalidArgument("a fault needs an effect: error, drop, status429 or latencyMs", "error");
  return { id: random.uuid(), operation: op, remaining, until, latencyMs, error, drop, status429, hits: 0 };
}

/** The faults of one instance. */
export class FaultTable {
  private faults: Fault[] = [];

  add(f: Fault): Fault {
    this.faults.push(f);
    return f;
  }

  /** Faults still in force (oldest first). */
  list(now: number): Fault[] {
    this.faults = this.faults.filter((f) => live(f, now));
    return [...this.faults];
  }

  delete(id: string): Fault {
    const f = this.faults.find((x) => x.id === id);
    if (!f) throw notFound(`fault not found: ${id}`);
    this.faults = this.faults.filter((x) => x !== f);
    return f;
  }

  clear(): number {
    const n = this.faults.length;
    this.faults = [];
    return n;
  }

  /** The fault (oldest first) that applies to a request at `path`, counting the call against it. */
  take(path: string, now: number): Fault | undefined {
    if (!this.faults.length) return undefined;
    const name = operationOf(path);
    const f = this.list(now).find((x) => (x.operation === "*" ? name !== null : x.operation.startsWith("/") ? x.operation === path : x.operation === name));
    if (!f) return undefined;
    f.hits++;
    if (f.remaining !== null) f.remaining--;
    return f;
  }
}

function live(f: Fault, now: number): boolean {
  return (f.remaining === null || f.remaining > 0) && (f.until === null || now < f.until);
}
