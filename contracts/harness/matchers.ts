/** Field matchers of `expect.fields`: each returns what is wrong, or nothing. */
import { isDeepStrictEqual } from "node:util";
import type { FieldMatcher } from "./format.js";

export type CheckedValue = { value: unknown; captured?: (name: string) => unknown; interpolate: (v: unknown) => unknown };

const FORMATS: Record<string, RegExp> = {
  uuid: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
  hex: /^(0x)?([0-9a-fA-F]{2})+$/,
  decimal: /^\d+$/,
};

export function jsonType(v: unknown): string {
  if (v === null) return "null";
  if (Array.isArray(v)) return "array";
  return typeof v;
}

const show = (v: unknown): string => (v === undefined ? "(absent)" : JSON.stringify(v)?.slice(0, 200) ?? String(v));

/** Checks one value against a matcher (a bare scalar means `equals`). */
export function matchField(matcher: FieldMatcher | string | number | boolean | null | unknown[], c: CheckedValue): string[] {
  const m: FieldMatcher = matcher !== null && typeof matcher === "object" && !Array.isArray(matcher) ? matcher : { equals: matcher };
  const v = c.value;
  const out: string[] = [];
  if (m.exists !== undefined && (v !== undefined) !== m.exists) out.push(m.exists ? "expected a value, found none" : `expected no value, found ${show(v)}`);
  if (v === undefined && m.exists !== false && Object.keys(m).some((k) => k !== "exists")) {
    out.push("expected a value, found none");
    return out;
  }
  if (m.type !== undefined && jsonType(v) !== m.type) out.push(`expected type ${m.type}, found ${jsonType(v)} ${show(v)}`);
  if (m.equals !== undefined) {
    const want = c.interpolate(m.equals);
    if (!isDeepStrictEqual(v, want)) out.push(`expected ${show(want)}, found ${show(v)}`);
  }
  if (m.equalsCaptured !== undefined) {
    const want = c.captured?.(m.equalsCaptured);
    if (!isDeepStrictEqual(v, want)) out.push(`expected the captured ${m.equalsCaptured} ${show(want)}, found ${show(v)}`);
  }
  if (m.regex !== undefined) {
    if (typeof v !== "string" || !new RegExp(m.regex).test(v)) out.push(`expected a string matching /${m.regex}/, found ${show(v)}`);
  }
  if (m.format !== undefined) {
    if (typeof v !== "string" || !FORMATS[m.format]!.test(v)) out.push(`expected a ${m.format} string, found ${show(v)}`);
  }
  if (m.oneOf !== undefined) {
    const options = m.oneOf.map((o) => c.interpolate(o));
    if (!options.some((o) => isDeepStrictEqual(o, v))) out.push(`expected one of ${show(options)}, found ${show(v)}`);
  }
  const len = Array.isArray(v) || typeof v === "string" ? v.length : undefined;
  if (m.length !== undefined && len !== m.length) out.push(`expected length ${m.length}, found ${len ?? jsonType(v)}`);
  if (m.minLength !== undefined && (len === undefined || len < m.minLength)) out.push(`expected length >= ${m.minLength}, found ${len ?? jsonType(v)}`);
  const has = (needle: unknown): boolean | undefined =>
    Array.isArray(v) ? v.some((e) => isDeepStrictEqual(e, needle)) : typeof v === "string" && typeof needle === "string" ? v.includes(needle) : undefined;
  if (m.contains !== undefined) {
    const needle = c.interpolate(m.contains);
    if (has(needle) !== true) out.push(`expected to contain ${show(needle)}, found ${show(v)}`);
  }
  if (m.notContains !== undefined) {
    const needle = c.interpolate(m.notContains);
    if (has(needle) !== false) out.push(`expected not to contain ${show(needle)}, found ${show(v)}`);
  }
  for (const [op, holds] of ORDER) {
    const bound = m[op];
    if (bound === undefined) continue;
    const want = c.interpolate(bound);
    const cmp = compareNumbers(v, want);
    if (cmp === undefined) out.push(`expected a number to compare with ${show(want)} (${op}), found ${show(v)}`);
    else if (!holds(cmp)) out.push(`expected a value ${SYMBOL[op]} ${show(want)}, found ${show(v)}`);
  }
  return out;
}

const ORDER: ["gt" | "gte" | "lt" | "lte", (cmp: number) => boolean][] = [
  ["gt", (c) => c > 0],
  ["gte", (c) => c >= 0],
  ["lt", (c) => c < 0],
  ["lte", (c) => c <= 0],
];
const SYMBOL = { gt: ">", gte: ">=", lt: "<", lte: "<=" };

/** A number, or a decimal string (token amounts beyond 2^53 are strings on the wire). */
function numberOf(v: unknown): bigint | number | undefined {
  if (typeof v === "number") return Number.isFinite(v) ? (Number.isSafeInteger(v) ? BigInt(v) : v) : undefined;
  if (typeof v !== "string") return undefined;
  if (/^-?\d+$/.test(v)) return BigInt(v);
  return /^-?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(v) ? Number(v) : undefined;
}

/** Sign of a - b, exact for whole numbers; undefined when either is not a number. */
export function compareNumbers(a: unknown, b: unknown): number | undefined {
  const x = numberOf(a);
  const y = numberOf(b);
  if (x === undefined || y === undefined) return undefined;
  if (typeof x === "bigint" && typeof y === "bigint") return x > y ? 1 : x < y ? -1 : 0;
  const d = Number(x) - Number(y);
  return d > 0 ? 1 : d < 0 ? -1 : 0;
}
