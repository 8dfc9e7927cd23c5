/**
 * Request limits that no contract schema carries: how long a name may be, which characters
 * it may hold, how many items a request's arrays may list, and the size of the one field the
 * service documents a size for. Pure: `checkRequestLimits` reads a parsed request body and
 * throws a 400 naming the first offending field; it stores nothing. See docs/limits.md.
 */
import { documentedError } from "../core/errors.js";

/** Longest name, in Unicode code points. */
export const MAX_NAME_LENGTH = 256;
/** Most items any request array may hold, unless the operation's entry says fewer (`arrayLimits`). */
export const MAX_ARRAY_ITEMS = 1000;
/**
 * Documented allowances that cap a request's arrays, each on the entries whose requests list
 * them (`arrayLimits` of defineActivity/defineProxyEndpoint): no single request may ask for more
 * than the whole allowance (users, policies and HD wallets 100 per organization; private keys
 * 1,000; API keys, authenticators and OAuth providers 10 per user). `accountsPerRequest` (new
 * wallet accounts per request) is the emulator's own choice.
 */
export const ALLOWANCE = {
  usersPerOrganization: 100,
  policiesPerOrganization: 100,
  privateKeysPerOrganization: 1000,
  credentialsPerUser: 10,
  accountsPerRequest: 100,
} as const;
/** The credentials a request lists for one new user. */
export const NEW_USER_CREDENTIALS = {
  apiKeys: ALLOWANCE.credentialsPerUser,
  authenticators: ALLOWANCE.credentialsPerUser,
  oauthProviders: ALLOWANCE.credentialsPerUser,
} as const;
/** The service limits a smart contract interface (ABI/IDL JSON) to 400 kB. */
export const MAX_SMART_CONTRACT_INTERFACE_BYTES = 400 * 1024;

/** Fields holding a display name: `name`, `label`, or anything ending in `Name`/`Label` (walletName, userTagName...). */
const NAME_FIELD = /^(name|label|[a-z][A-Za-z0-9]*(Name|Label))$/;
/** C0 and C1 controls and DEL, then the bidirectional embedding/override/isolate controls. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/u;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/u;
/** A UTF-16 surrogate without its pair: a JSON `\ud800` escape, not text. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

const codePoint = (c: string) => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")}`;

function fail(field: string, what: string): never {
  throw documentedError("BAD_REQUEST_BODY", `${field}: ${what}`, field);
}

/** Why `value` is not an acceptable name, or undefined when it is. */
export function nameProblem(value: string): string | undefined {
  const surrogate = LONE_SURROGATE.exec(value);
  if (surrogate) return `must be valid Unicode text (unpaired surrogate ${codePoint(surrogate[0])} at index ${surrogate.index})`;
  const control = CONTROL.exec(value) ?? BIDI.exec(value);
  if (control) return `must not contain control characters (${codePoint(control[0])} at index ${control.index})`;
  const length = [...value].length;
  if (length > MAX_NAME_LENGTH) return `must be at most ${MAX_NAME_LENGTH} characters (got ${length})`;
  return undefined;
}

/**
 * Throws INVALID_ARGUMENT (400, `REQUEST_INVALID`, a BadRequest detail naming the field, e.g.
 * `parameters.walletName`) when the parsed request `body` of operation `opName` breaks a
 * limit. Walks the whole body, so nested names (`parameters.users[0].apiKeys[1].apiKeyName`)
 * are checked too; an array under a key of `arrayLimits` (the operation entry's) holds at
 * most that many items, any other at most MAX_ARRAY_ITEMS.
 */
export function checkRequestLimits(opName: string, body: unknown, arrayLimits: Readonly<Record<string, number>> = {}): void {
  walk(body, "", undefined, arrayLimits);
  if (opName === "create_smart_contract_interface") {
    const sci = (body as { parameters?: { smartContractInterface?: unknown } } | undefined)?.parameters?.smartContractInterface;
    if (typeof sci === "string" && Buffer.byteLength(sci, "utf8") > MAX_SMART_CONTRACT_INTERFACE_BYTES)
      fail("parameters.smartContractInterface", `must be at most ${MAX_SMART_CONTRACT_INTERFACE_BYTES} bytes (400 kB) (got ${Buffer.byteLength(sci, "utf8")})`);
  }
}

function walk(value: unknown, path: string, key: string | undefined, limits: Readonly<Record<string, number>>): void {
  if (typeof value === "string") {
    if (key !== undefined && NAME_FIELD.test(key)) {
      const problem = nameProblem(value);
      if (problem) fail(path, problem);
    }
    return;
  }
  if (Array.isArray(value)) {
    const max = (key !== undefined && Object.hasOwn(limits, key) ? limits[key] : undefined) ?? MAX_ARRAY_ITEMS;
    if (value.length > max) fail(path || "body", `must list at most ${max} items (got ${value.length})`);
    value.forEach((item, i) => walk(item, `${path}[${i}]`, undefined, limits));
    return;
  }
  if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) walk(v, path ? `${path}.${k}` : k, k, limits);
  }
}
