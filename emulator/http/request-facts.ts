/**
 * What the request pipeline learned about a request once it admitted it (the organization it
 * is served in and the caller), kept on the response so that observers (the request log)
 * read it instead of parsing the body and resolving the stamp a second time.
 */
import type { Response } from "express";

export type RequestFacts = { organizationId: string; userId: string | null; credential: string | null };

export function noteRequest(res: Response, facts: RequestFacts): void {
  res.locals.requestFacts = facts;
}

export function requestFacts(res: Response): RequestFacts | undefined {
  return res.locals.requestFacts as RequestFacts | undefined;
}
