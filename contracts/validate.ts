/**
 * Reading requests and checking responses against the generated contracts.
 */
import type { z } from "zod";
import { documentedError } from "../emulator/core/errors.js";
import type { DocumentedErrorKey } from "../emulator/core/error-catalogue.js";
import { fromProtoJson } from "./proto-json.js";

const pathOf = (path: PropertyKey[]): string => path.map((p) => (typeof p === "number" ? `[${p}]` : String(p))).join(".").replace(/\.\[/g, "[");

/** OAuth2 fields the service names by their snake_case wire name: "auth_code must be set". */
const MUST_BE_SET: Readonly<Record<string, DocumentedErrorKey>> = {
  authCode: "AUTH_CODE_NOT_SET",
  codeVerifier: "CODE_VERIFIER_NOT_SET",
  oauth2CredentialId: "OAUTH2_CREDENTIAL_ID_NOT_SET",
  redirectUri: "REDIRECT_URI_NOT_SET",
  clientId: "CLIENT_ID_NOT_SET",
};

/** Enum fields whose bad value the errors page names (errors.mdx:98-104). */
const BAD_VALUE: Readonly<Record<string, DocumentedErrorKey>> = {
  pathFormat: "INVALID_PATH_FORMAT",
  curve: "INVALID_CURVE",
  addressFormat: "INVALID_ADDRESS_FORMAT",
  addressFormats: "INVALID_ADDRESS_FORMAT",
  encoding: "INVALID_PAYLOAD_ENCODING",
  hashFunction: "INVALID_HASH_FUNCTION",
};

/**
 * The documented error for a contract violation at `path`: the errors page's own message for a
 * missing curve, attestation, sub-organization wallet parameter or OAuth2 field, or a bad path
 * format, curve, address format, payload encoding or hash function; "bad request body" otherwise.
 */
export function contractViolationKey(path: PropertyKey[], missing: boolean, badEnumValue: boolean): DocumentedErrorKey {
  const names = path.filter((p): p is string => typeof p === "string");
  const last = names.at(-1) ?? "";
  if (missing) {
    if (names[0] === "parameters" && names[1] === "wallet" && names.length > 2) return "MISSING_WALLET_PARAMS";
    if (last === "curve") return "CURVE_REQUIRED";
    if (last === "attestation") return "MISSING_ATTESTATION";
    const topLevel = names.length === 1 || (names.length === 2 && names[0] === "parameters");
    if (topLevel && MUST_BE_SET[last]) return MUST_BE_SET[last];
  }
  if (badEnumValue && BAD_VALUE[last]) return BAD_VALUE[last];
  return "BAD_REQUEST_BODY";
}

/** The value at `path` in `body`, or undefined when any step is absent. */
function valueAt(body: unknown, path: PropertyKey[]): unknown {
  let v: unknown = body;
  for (const p of path) {
    if (v === null || typeof v !== "object") return undefined;
    v = (v as Record<PropertyKey, unknown>)[p];
  }
  return v;
}

type Issue = z.core.$ZodIssue;

/**
 * The issue to report and its full path: the first one, or inside a union whose every branch
 * failed (an older activity version's parameters, an integer as number or string), the branch
 * that read furthest into the body (the first of those).
 */
function reportedIssue(issues: readonly Issue[], base: PropertyKey[] = []): { issue: Issue; path: PropertyKey[] } {
  const issue = issues[0]!;
  const path = [...base, ...issue.path];
  if (issue.code !== "invalid_union") return { issue, path };
  let best: { issue: Issue; path: PropertyKey[] } | undefined;
  for (const branch of issue.errors) {
    if (!branch.length) continue;
    const found = reportedIssue(branch, path);
    if (!best || found.path.length > best.path.length) best = found;
  }
  return best ?? { issue, path };
}

/**
 * Reads `body` by protobuf's JSON mapping (proto-json.ts: proto names, nulls), then parses it
 * with `schema`. On failure throws a 400 naming the first offending field with the errors
 * page's message for it, e.g. `bad request body: parameters.walletName: required field missing`
 * or `curve required: parameters.accounts[0].curve: required field missing`.
 */
export function parseRequest<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const read = fromProtoJson(schema, body);
  if ("refused" in read) {
    const field = pathOf(read.refused.path);
    throw documentedError("BAD_REQUEST_BODY", `${field}: ${read.refused.why}`, field);
  }
  const r = schema.safeParse(read.value);
  if (r.success) return r.data;
  const { issue, path } = reportedIssue(r.error.issues);
  const field = pathOf(path) || "body";
  const missing = valueAt(read.value, path) === undefined;
  const badEnumValue = !missing && issue.code === "invalid_value" && "values" in issue;
  let what: string;
  if (missing) what = "required field missing";
  else if (badEnumValue) what = `invalid value, expected one of ${(issue.values as unknown[]).map(String).join(", ")}`;
  else what = issue.message.replace(/^Invalid input: /, "");
  throw documentedError(contractViolationKey(path, missing, badEnumValue), `${field}: ${what}`, field);
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
