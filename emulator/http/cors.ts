/** CORS for browser SDKs: preflight answered, the headers they send allowed. */
import type { RequestHandler } from "express";

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

export function cors(allowOrigin: (origin: string | undefined) => string | null = (o) => o ?? "*"): RequestHandler {
  return (req, res, next) => {
    const origin = allowOrigin(req.headers.origin);
    if (origin) {
      res.setHeader("Access-Control-Allow-Origin", origin);
      res.setHeader("Vary", "Origin");
      res.setHeader("Access-Control-Allow-Methods", "GET, POST, OPTIONS");
      res.setHeader("Access-Control-Allow-Headers", ALLOWED_HEADERS);
      res.setHeader("Access-Control-Max-Age", "600");
    }
    if (req.method === "OPTIONS") {
      res.status(204).end();
      return;
    }
    next();
  };
}
