/**
 * CORS of the service's surfaces, decided once per request: `corsFirst` sets the headers of the
 * request's surface before anything else may answer it (app.ts mounts it ahead of the faults,
 * the rate limit, the body reader and the surfaces), so every answer carries them whoever makes
 * it, and it answers the preflights itself (a fault never sees an `OPTIONS`). The HTTP parser's
 * own refusals (headers over the limit) take the same headers from `corsHeaders`
 * (http/client-errors.ts).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { RequestHandler } from "express";

/** The request headers the browser SDKs send (wire facts: inferred from the SDKs, the production policy is not published). */
export const ALLOWED_HEADERS = [
  "Content-Type",
  "X-Stamp",
  "X-Stamp-Webauthn",
  "X-Stamp-Attested",
  "X-Client-Version",
  "X-Auth-Proxy-Config-ID",
  "X-Captcha-Token",
  "X-Session",
].join(", ");

/**
 * The response headers a page may read besides the safelisted ones: the rate limit's
 * (tkhq/docs `reference/faq.mdx`) and a 429's `Retry-After`, so that a browser app can back off.
 */
export const EXPOSED_HEADERS = ["ratelimit-limit", "ratelimit-remaining", "x-rate-limit-request-forwarded-for", "x-rate-limit-request-remote-addr", "Retry-After"].join(", ");

/** What a CORS decision reads of a request: an Express request, or the head of one the HTTP parser refused. */
export type CorsRequest = { method?: string; path: string; headers: IncomingHttpHeaders };

/** One surface's CORS: the methods it names and the origin it allows a request (null: no CORS headers). */
export type CorsPolicy = { methods: string; allowOrigin(req: CorsRequest): string | null };

/** The coordinator's (and any other path of the service's): any origin, as the browser SDKs need. */
export const OPEN_CORS: CorsPolicy = { methods: "GET, POST, OPTIONS", allowOrigin: (req) => req.headers.origin ?? "*" };

/**
 * The CORS response headers `policy` gives `req` (none when it allows no origin). The methods,
 * the request headers and how long to keep them answer a preflight (`OPTIONS`) only, as the
 * Fetch standard's CORS protocol reads them there; every answer names the origin and the
 * headers a page may read.
 */
export function corsHeaders(policy: CorsPolicy, req: CorsRequest): Record<string, string> {
  const origin = policy.allowOrigin(req);
  if (!origin) return {};
  const headers: Record<string, string> = { "Access-Control-Allow-Origin": origin, Vary: "Origin", "Access-Control-Expose-Headers": EXPOSED_HEADERS };
  if (req.method !== "OPTIONS") return headers;
  return { ...headers, "Access-Control-Allow-Methods": policy.methods, "Access-Control-Allow-Headers": ALLOWED_HEADERS, "Access-Control-Max-Age": "600" };
}

/**
 * Sets the CORS headers of the request's surface (`policyOf`; undefined: not a surface of the
 * service, left alone) and answers its preflight with 204. Mount it before anything that may
 * answer a request of the service.
 */
export function corsFirst(policyOf: (req: CorsRequest) => CorsPolicy | undefined): RequestHandler {
  return (req, res, next) => {
    const policy = policyOf(req);
    if (!policy) return next();
    res.set(corsHeaders(policy, req));
    if (req.method === "OPTIONS") {
      res.status(204).end();
      return;
    }
    next();
  };
}

/** One policy for every request it sees (the open paths under /emulator/: http/local-origin.ts). */
export function cors(policy: CorsPolicy = OPEN_CORS): RequestHandler {
  return corsFirst(() => policy);
}
