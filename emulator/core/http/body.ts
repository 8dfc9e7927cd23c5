/**
 * Raw-body capture: stamps sign the exact bytes received, so the body is kept as a Buffer
 * and parsed here, never re-serialised before verification.
 */
import express, { type Request, type RequestHandler, type Response } from "express";
import { documentedError } from "../errors.js";

export const MAX_BODY_BYTES = 10 * 1024 * 1024;

export const rawBody: RequestHandler = express.raw({ type: () => true, limit: MAX_BODY_BYTES });

export function bodyBytes(body: unknown): Buffer {
  return Buffer.isBuffer(body) ? body : Buffer.alloc(0);
}

/** The raw body, read by the same reader and limits as `rawBody`; its refusals reject. */
export function readBody(req: Request, res: Response): Promise<Buffer> {
  return new Promise((resolve, reject) => rawBody(req, res, (err?: unknown) => (err ? reject(err) : resolve(bodyBytes(req.body)))));
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

/** The body as text; bytes that are not UTF-8 are refused rather than silently replaced. */
function utf8Text(raw: Buffer): string {
  try {
    return utf8.decode(raw);
  } catch {
    throw documentedError("BAD_REQUEST_BODY", "it is not valid UTF-8", "body");
  }
}

/** Parses a JSON object body; `emptyAsObject` lets body-less calls through as `{}`. */
export function parseJsonObject(raw: Buffer, emptyAsObject = false): Record<string, unknown> {
  if (raw.length === 0 && emptyAsObject) return {};
  let value: unknown;
  try {
    value = JSON.parse(utf8Text(raw));
  } catch (e) {
    throw documentedError("BAD_REQUEST_BODY", `it is not valid JSON: ${(e as Error).message}`, "body");
  }
  if (!value || typeof value !== "object" || Array.isArray(value)) throw documentedError("BAD_REQUEST_BODY", "expected a JSON object", "body");
  return value as Record<string, unknown>;
}

/**
 * The control API's body reader: the same raw capture and limits, then a JSON object (an
 * empty body reads as `{}`), or with `form` an `application/x-www-form-urlencoded` body as an
 * object of strings. A body that is not one answers 400 rpcStatus through `next(err)`.
 */
export function objectBody(opts: { form?: boolean } = {}): RequestHandler {
  return (req, res, next) => {
    rawBody(req, res, (err?: unknown) => {
      if (err) return next(err);
      try {
        const raw = bodyBytes(req.body);
        const isForm = opts.form && /^application\/x-www-form-urlencoded\b/i.test(req.headers["content-type"] ?? "");
        req.body = isForm ? Object.fromEntries(new URLSearchParams(raw.toString("utf8"))) : parseJsonObject(raw, true);
        next();
      } catch (e) {
        next(e);
      }
    });
  };
}
