/**
 * Structural comparison of two runs of the same scenarios: HTTP status, error code, and
 * the shape of every response — fields missing or extra, JSON types, enum values and
 * booleans. Values expected to differ between deployments (ids, timestamps, names,
 * fingerprints, addresses, signatures: any string that is not an enum value, and numbers)
 * are not compared.
 */
import { z } from "zod";
import { coordinatorSchemas, proxySchemas } from "../index.js";
import type { Difference, RunReport } from "./types.js";

let enumValues: Set<string> | undefined;
/** Every enum value the contracts know. */
function knownEnumValues(): Set<string> {
  if (enumValues) return enumValues;
  enumValues = new Set();
  for (const s of [...Object.values(coordinatorSchemas), ...Object.values(proxySchemas)]) {
    if (s instanceof z.ZodEnum) for (const v of s.options) enumValues.add(String(v));
  }
  return enumValues;
}
const ENUM_LIKE = /^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$/;
export const isEnumValue = (s: string): boolean => knownEnumValues().has(s) || ENUM_LIKE.test(s);

type Shape =
  | { kind: "object"; fields: Map<string, Shape> }
  | { kind: "array"; element: Shape | undefined }
  | { kind: "string"; enums: Set<string> }
  | { kind: "boolean"; values: Set<boolean> }
  | { kind: "number"; values: Set<number> }
  | { kind: "null" }
  | { kind: "mixed"; kinds: Map<string, Shape> };

/** The shape of a value; arrays merge the shapes of their elements. `code` numbers are kept as values. */
export function shapeOf(value: unknown, key = ""): Shape {
  if (value === null || value === undefined) return { kind: "null" };
  if (Array.isArray(value)) return { kind: "array", element: value.reduce<Shape | undefined>((acc, v) => merge(acc, shapeOf(v, key)), undefined) };
  if (typeof value === "object") return { kind: "object", fields: new Map(Object.entries(value).filter(([, v]) => v !== undefined).map(([k, v]) => [k, shapeOf(v, k)])) };
  if (typeof value === "string") return { kind: "string", enums: new Set(isEnumValue(value) ? [value] : []) };
  if (typeof value === "boolean") return { kind: "boolean", values: new Set([value]) };
  return { kind: "number", values: new Set(key === "code" ? [Number(value)] : []) };
}

function merge(a: Shape | undefined, b: Shape): Shape {
  if (!a) return b;
  if (a.kind === "mixed" || b.kind === "mixed" || a.kind !== b.kind) {
    const kinds = new Map<string, Shape>(a.kind === "mixed" ? a.kinds : [[a.kind, a]]);
    for (const [k, s] of b.kind === "mixed" ? b.kinds : [[b.kind, b] as const]) kinds.set(k, merge(kinds.get(k), s));
    return { kind: "mixed", kinds };
  }
  switch (a.kind) {
    case "object": {
      const fields = new Map(a.fields);
      for (const [k, s] of (b as typeof a).fields) fields.set(k, merge(fields.get(k), s));
      return { kind: "object", fields };
    }
    case "array": {
      const be = (b as typeof a).element;
      return { kind: "array", element: be ? merge(a.element, be) : a.element };
    }
    case "string":
      return { kind: "string", enums: new Set([...a.enums, ...(b as typeof a).enums]) };
    case "boolean":
      return { kind: "boolean", values: new Set([...a.values, ...(b as typeof a).values]) };
    case "number":
      return { kind: "number", values: new Set([...a.values, ...(b as typeof a).values]) };
    default:
      return a;
  }
}

type Diff = { path: string; kind: Difference["kind"]; a: unknown; b: unknown };

const kindName = (s: Shape): string => (s.kind === "mixed" ? [...s.kinds.keys()].sort().join("|") : s.kind);
const sorted = <T>(s: Set<T>): T[] => [...s].sort();
const join = (base: string, key: string) => (base ? `${base}.${key}` : key);

export function diffShapes(a: Shape, b: Shape, path = "", out: Diff[] = []): Diff[] {
  const at = path || "(root)";
  if (a.kind !== b.kind) {
    out.push({ path: at, kind: "type", a: kindName(a), b: kindName(b) });
    return out;
  }
  switch (a.kind) {
    case "object": {
      const bf = (b as typeof a).fields;
      for (const [k, s] of a.fields) {
        const other = bf.get(k);
        if (!other) out.push({ path: join(path, k), kind: "missing", a: kindName(s), b: undefined });
        else diffShapes(s, other, join(path, k), out);
      }
      for (const [k, s] of bf) if (!a.fields.has(k)) out.push({ path: join(path, k), kind: "extra", a: undefined, b: kindName(s) });
      break;
    }
    case "array": {
      const be = (b as typeof a).element;
      if (a.element && be) diffShapes(a.element, be, `${path}[]`, out);
      break;
    }
    case "string": {
      const be = (b as typeof a).enums;
      if (sorted(a.enums).join() !== sorted(be).join()) out.push({ path: at, kind: "enum", a: sorted(a.enums), b: sorted(be) });
      break;
    }
    case "boolean":
    case "number": {
      const bv = (b as typeof a).values as Set<unknown>;
      const av = a.values as Set<unknown>;
      if (sorted(av).join() !== sorted(bv).join()) out.push({ path: at, kind: "value", a: sorted(av), b: sorted(bv) });
      break;
    }
    case "mixed": {
      const bk = (b as typeof a).kinds;
      if ([...a.kinds.keys()].sort().join() !== [...bk.keys()].sort().join()) out.push({ path: at, kind: "type", a: kindName(a), b: kindName(b) });
      else for (const [k, s] of a.kinds) diffShapes(s, bk.get(k)!, path, out);
      break;
    }
  }
  return out;
}

/** Differences between two runs of the same scenario set, step by step. */
export function compareRuns(a: RunReport, b: RunReport): Difference[] {
  const out: Difference[] = [];
  const bByName = new Map(b.scenarios.map((s) => [s.name, s]));
  for (const sa of a.scenarios) {
    const sb = bByName.get(sa.name);
    if (!sb) {
      out.push({ scenario: sa.name, step: "(scenario)", operation: "", path: "", kind: "step", a: sa.outcome, b: "(not run)" });
      continue;
    }
    if ((sa.outcome === "skipped") !== (sb.outcome === "skipped")) {
      out.push({ scenario: sa.name, step: "(scenario)", operation: "", path: "", kind: "step", a: sa.skipReason ?? sa.outcome, b: sb.skipReason ?? sb.outcome });
    }
    const n = Math.max(sa.steps.length, sb.steps.length);
    for (let i = 0; i < n; i++) {
      const ta = sa.steps[i];
      const tb = sb.steps[i];
      const step = ta?.name ?? tb!.name;
      const operation = ta?.operation ?? tb!.operation;
      const push = (d: Diff) => out.push({ scenario: sa.name, step, operation, ...d });
      if (!ta?.response || !tb?.response) {
        if (!!ta?.response !== !!tb?.response) push({ path: "", kind: "step", a: ta?.response ? "ran" : (ta?.outcome ?? "absent"), b: tb?.response ? "ran" : (tb?.outcome ?? "absent") });
        continue;
      }
      if (ta.response.status !== tb.response.status) push({ path: "(http status)", kind: "status", a: ta.response.status, b: tb.response.status });
      const ca = (ta.response.body as { code?: unknown } | undefined)?.code;
      const cb = (tb.response.body as { code?: unknown } | undefined)?.code;
      const isError = ta.response.status !== 200 || tb.response.status !== 200;
      if (isError && ca !== cb) push({ path: "code", kind: "code", a: ca, b: cb });
      for (const d of diffShapes(shapeOf(ta.response.body), shapeOf(tb.response.body))) {
        if (isError && d.path === "code" && d.kind === "value") continue; // reported as a code difference
        push(d);
      }
    }
  }
  return out;
}
