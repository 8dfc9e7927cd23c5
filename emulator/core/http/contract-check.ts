/**
 * Response conformance: when enabled (always in tests), every body the emulator sends is
 * checked against its contract. A mismatch is an emulator bug: it is logged and turned
 * into a 500 so that no test can pass over it.
 */
import type { z } from "zod";
import { checkResponse } from "../../../contracts/index.js";
import { internal } from "../errors.js";

export function conformingBody(enabled: boolean, schema: z.ZodType, schemaName: string, where: string, body: unknown): unknown {
  if (!enabled) return body;
  const problems = checkResponse(schema, body);
  if (!problems.length) return body;
  const list = problems.slice(0, 5).map((p) => `${p.path}: ${p.problem}`).join("; ");
  const message = `contract violation in ${where} (${schemaName}): ${list}`;
  console.error(`[emulator] ${message}`);
  throw internal(message);
}
