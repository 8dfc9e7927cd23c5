/**
 * What the request pipeline learned about a request once it admitted it (the organization it
 * is served in and the caller), and the body it answered with, kept on the response so that
 * observers (the request log) read them instead of parsing the body and resolving the stamp a
 * second time.
 */
import type { Response } from "express";
import type { Clock } from "../clock.js";
import { responseText } from "../views/json-text.js";

export type RequestFacts = { organizationId: string; userId: string | null; credential: string | null };

export function noteRequest(res: Response, facts: RequestFacts): void {
  res.locals.requestFacts = facts;
}

export function requestFacts(res: Response): RequestFacts | undefined {
  return res.locals.requestFacts as RequestFacts | undefined;
}

/**
 * The request's instant: the emulator's clock read once, by whoever asks first (the request log,
 * as the request arrives), and the same for everyone after (the fault rules, the caller's key
 * expiry, the activity's times and its policies), so that the log's `at` is the activity's
 * `createdAt`.
 */
export function requestInstant(clock: Clock, res: Response): number {
  return (res.locals.at as number | undefined) ?? (res.locals.at = clock.now());
}

/** Notes the activity type (version) a submission was read as, once the operation accepts it. */
export function noteActivityType(res: Response, activityType: string): void {
  res.locals.activityType = activityType;
}

/** The activity type `noteActivityType` noted, if the request got that far. */
export function activityTypeOf(res: Response): string | undefined {
  return res.locals.activityType as string | undefined;
}

/**
 * Sends a successful answer as JSON (the text of a kept rendering is reused: views/json-text.ts)
 * and keeps the body for observers. Written with node's own `writeHead`/`end`: the answer to a
 * POST needs none of what express's `send` works out per call (freshness, ETag, HEAD).
 */
export function sendAnswer(res: Response, body: unknown): void {
  res.locals.answer = body;
  const text = responseText(body);
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(text) }).end(text);
}

/** Sends an error's rpcStatus body with its HTTP status, and keeps the body for observers. */
export function sendErrorAnswer(res: Response, status: number, body: unknown): void {
  res.locals.answer = body;
  res.status(status).json(body);
}

/** The body `sendAnswer` or `sendErrorAnswer` sent, if one did. */
export function answerOf(res: Response): unknown {
  return res.locals.answer;
}
