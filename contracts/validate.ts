/**
 * Reading requests and checking responses against the generated contracts.
 */
import type { z } from "zod";
import { invalidArgument } from "../emulator/errors.js";

const pathOf = (path: PropertyKey[]): string => path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(/\.\[/g, "[");

/**
 * Parses `body` with `schema`. On failure throws a 400 naming the first offending field,
 * e.g. `parameters.walletName: required field missing`.
 */
export function parseRequest<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const r = schema.safeParse(body);
  if (r.success) return r.data;
  const issue = r.error.issues[0]!;
  const field = pathOf(issue.path) || "body";
  const missing = issue.code === "invalid_type" && /received undefined/.test(issue.message);
  let what: string;
  if (missing) what = "required field missing";
  else if (issue.code === "invalid_value" && "values" in issue) what = `invalid value, expected one of ${(issue.values as unknown[]).map(String).join(", ")}`;
  else what = issue.message.replace(/^Invalid input: /, "");
  throw invalidArgument(`invalid request: ${field}: ${what}`, field);
}

export type ContractProblem = { path: string; problem: string };

/**
 * Checks that `value` is exactly what `schema` describes: every issue zod finds, plus every
 * field present in the value that the contract does not know (zod strips those silently).
 */
export function checkResponse(schema: z.ZodType, value: unknown): ContractProblem[] {
  const r = schema.safeParse(value);
  if (!r.success) return r.error.issues.map((i) => ({ path: pathOf(i.path) || "(root)", problem: i.message }));
  const problems: ContractProblem[] = [];
  extraKeys(value, r.data, [], problems);
  return problems;
}

function extraKeys(raw: unknown, parsed: unknown, path: PropertyKey[], out: ContractProblem[]): void {
  if (Array.isArray(raw) && Array.isArray(parsed)) {
    raw.forEach((v, i) => extraKeys(v, parsed[i], [...path, i], out));
    return;
  }
  if (raw && typeof raw === "object" && parsed && typeof parsed === "object") {
    for (const [k, v] of Object.entries(raw)) {
      if (!(k in parsed)) {
        if (v !== undefined) out.push({ path: pathOf([...path, k]), problem: "field not in the contract" });
        continue;
      }
      extraKeys(v, (parsed as Record<string, unknown>)[k], [...path, k], out);
    }
  }
}
