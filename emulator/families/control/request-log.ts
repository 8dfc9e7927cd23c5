/**
 * The request log: the last requests to the emulated service (coordinator and auth proxy;
 * not the control API), kept in memory and bounded. Each record says who asked what and
 * how it ended; it never holds a body, a secret or a stamp: the caller is a user id and a
 * short public-key (or credential id) prefix.
 */
import { invalidArgument } from "../../core/errors.js";

export const REQUEST_LOG_CAPACITY = 1000;

export type RequestRecord = {
  seq: number;
  /** When the request arrived, on the emulated clock. */
  at: string;
  atMs: number;
  method: string;
  path: string;
  organizationId: string | null;
  caller: { userId: string | null; key: string | null } | null;
  /** HTTP status; 0 when the connection closed without an answer (e.g. a dropped-connection fault). */
  status: number;
  latencyMs: number;
  activityId: string | null;
  /** The rpcStatus code of an error answer, and its Turnkey error code when it has one. */
  errorCode: number | null;
  turnkeyErrorCode: string | null;
};

export type RequestFilter = { path?: string; org?: string; status?: { exact: number } | { klass: number }; since?: number; limit?: number };

export class RequestLog {
  private readonly records: RequestRecord[] = [];
  private seq = 0;

  constructor(private readonly capacity = REQUEST_LOG_CAPACITY) {}

  add(r: Omit<RequestRecord, "seq">): RequestRecord {
    const record = { seq: ++this.seq, ...r };
    this.records.push(record);
    if (this.records.length > this.capacity) this.records.splice(0, this.records.length - this.capacity);
    return record;
  }

  /** Matching records, newest last. */
  query(f: RequestFilter = {}): RequestRecord[] {
    const out = this.records.filter(
      (r) =>
        (f.path === undefined || r.path.includes(f.path)) &&
        (f.org === undefined || r.organizationId === f.org) &&
        (f.since === undefined || r.atMs >= f.since) &&
        (f.status === undefined || ("exact" in f.status ? r.status === f.status.exact : Math.floor(r.status / 100) === f.status.klass)),
    );
    return f.limit === undefined ? out : out.slice(-f.limit);
  }

  clear(): void {
    this.records.length = 0;
  }
}

/** Reads `?path=&org=&status=&since=&limit=`; a 400 naming the parameter on a malformed one. */
export function parseRequestFilter(q: Record<string, unknown>): RequestFilter {
  const one = (k: string): string | undefined => {
    const v = q[k];
    if (v === undefined || v === "") return undefined;
    if (typeof v !== "string") throw invalidArgument(`${k} must be given once`, k);
    return v;
  };
  const f: RequestFilter = {};
  const path = one("path");
  if (path) f.path = path;
  const org = one("org");
  if (org) f.org = org;
  const status = one("status");
  if (status) {
    if (/^[1-5]\d\d$/.test(status)) f.status = { exact: Number(status) };
    else if (/^[1-5]xx$/i.test(status)) f.status = { klass: Number(status[0]) };
    else throw invalidArgument("status must be an HTTP status (404) or a class (4xx)", "status");
  }
  const since = one("since");
  if (since) {
    const ms = /^\d+$/.test(since) ? Number(since) : /^\d{4}-\d{2}-\d{2}T/.test(since) ? Date.parse(since) : NaN;
    if (!Number.isFinite(ms)) throw invalidArgument("since must be milliseconds since the epoch or an ISO 8601 instant", "since");
    f.since = ms;
  }
  const limit = one("limit");
  if (limit) {
    if (!/^\d+$/.test(limit) || Number(limit) < 1) throw invalidArgument("limit must be a whole number from 1", "limit");
    f.limit = Number(limit);
  }
  return f;
}

/** A short, secret-free prefix of a public key or credential id. */
export function keyPrefix(key: string): string {
  return key.length > 12 ? `${key.slice(0, 12)}…` : key;
}

/** The stamp's public key (X-Stamp) or credential id (X-Stamp-WebAuthn); never the signature. */
export function stampKey(headers: Record<string, string | string[] | undefined>): string | null {
  const pick = (name: string) => {
    const v = headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  try {
    const api = pick("x-stamp");
    if (api) {
      const k = (JSON.parse(Buffer.from(api, "base64url").toString("utf8")) as { publicKey?: unknown }).publicKey;
      return typeof k === "string" ? k : null;
    }
    const webauthn = pick("x-stamp-webauthn");
    if (webauthn) {
      const id = (JSON.parse(webauthn) as { credentialId?: unknown }).credentialId;
      return typeof id === "string" ? id : null;
    }
  } catch {
    /* a malformed stamp: the request itself says so */
  }
  return null;
}

/** One concise line for `--log`. */
export function formatRequestLine(r: RequestRecord): string {
  const parts = [r.at, r.method, r.path, String(r.status || "dropped"), `${r.latencyMs.toFixed(1)}ms`];
  if (r.organizationId) parts.push(`org=${r.organizationId}`);
  if (r.caller?.userId) parts.push(`user=${r.caller.userId}`);
  else if (r.caller?.key) parts.push(`key=${r.caller.key}`);
  if (r.activityId) parts.push(`activity=${r.activityId}`);
  if (r.errorCode !== null) parts.push(`error=${r.errorCode}${r.turnkeyErrorCode ? `/${r.turnkeyErrorCode}` : ""}`);
  return parts.join(" ");
}
