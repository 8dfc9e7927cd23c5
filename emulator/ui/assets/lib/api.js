/**
 * The control API client: the UI reads and writes only documented routes under /emulator/v1/.
 * Failures arrive as rpcStatus bodies ({code, message, details}) and are thrown as ApiError.
 */

export class ApiError extends Error {
  /** @param {number} status @param {{code?: number, message?: string, details?: any[]}} body */
  constructor(status, body) {
    super(body?.message || `HTTP ${status}`);
    this.status = status;
    this.code = body?.code;
    /** The request field the error names, when it names one. */
    this.field = body?.details?.flatMap((d) => d?.fieldViolations ?? []).map((v) => v.field)[0];
    this.body = body;
  }
}

const BASE = "/emulator/v1";

/** @param {string} path @param {RequestInit} [init] */
async function call(path, init) {
  const res = await fetch(BASE + path, { ...init, headers: { accept: "application/json", ...(init?.body ? { "content-type": "application/json" } : {}) } });
  const text = await res.text();
  let body;
  try {
    body = text ? JSON.parse(text) : {};
  } catch {
    body = { message: text };
  }
  if (!res.ok) throw new ApiError(res.status, body);
  return body;
}

/**
 * GET with query parameters (undefined, null and "" are left out).
 * @param {string} path @param {Record<string, unknown>} [query]
 */
export function get(path, query = {}) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== "") q.set(k, String(v));
  const s = q.toString();
  return call(s ? `${path}?${s}` : path);
}

/** @param {string} path @param {unknown} [body] */
export const post = (path, body = {}) => call(path, { method: "POST", body: JSON.stringify(body) });

/** @param {string} path */
export const del = (path) => call(path, { method: "DELETE" });

/** The URL of a control route (for links such as the state download). @param {string} path */
export const url = (path) => BASE + path;
