/**
 * Request bodies generated from a (zod v4) contract schema, with every field written under the
 * name `name` gives it: its JSON name, its proto name (the snake_case of the JSON name, as the
 * service's proto files spell them, e.g. tkhq/rust-sdk proto/external/activity/v1/activity.proto
 * `timestamp_ms`, `organization_id`), or either at random. Optional fields are left out,
 * included (recursively, arrays with one item, maps with one entry) or sent as null. The same
 * options give the same body apart from spelling, so two spellings can be compared.
 */
import type { z } from "zod";

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The proto name of a JSON name: written here from the rule, not taken from the emulator. */
export const snakeCase = (jsonName: string): string => jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

export type BodyOptions = {
  /** What to do with an optional field: leave it out, include it, or send it as null. */
  optional: "omit" | "include" | "null";
  /** The name to write a field under. */
  name: (jsonName: string) => string;
  /** Values for fields by JSON name, wherever they appear. */
  fill?: Record<string, unknown>;
};

const MAX_DEPTH = 6;
/** A map's key: data, written the same in every spelling. */
export const MAP_KEY = "map_key_1";

export function bodyOf(schema: z.ZodType, opts: BodyOptions): unknown {
  return walk(schema, opts, 0);
}

function walk(schema: z.ZodType, opts: BodyOptions, depth: number): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      // A string with checks is a decimal integer in the generated contracts (int64).
      return Array.isArray(def.checks) && def.checks.length ? "1" : "x";
    case "number":
      return 1;
    case "boolean":
      return false;
    case "enum":
      return Object.values(def.entries as Record<string, string>)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "array":
      return opts.optional === "include" && depth < MAX_DEPTH ? [walk(def.element as z.ZodType, opts, depth + 1)] : [];
    case "optional":
      if (opts.optional === "null") return null;
      return opts.optional === "include" && depth < MAX_DEPTH ? walk(def.innerType as z.ZodType, opts, depth) : undefined;
    case "union":
      return walk((def.options as z.ZodType[])[0]!, opts, depth);
    case "pipe":
      return walk(def.in as z.ZodType, opts, depth);
    case "lazy":
      return depth >= MAX_DEPTH ? {} : walk((def.getter as () => z.ZodType)(), opts, depth + 1);
    case "record":
      return opts.optional === "include" ? { [MAP_KEY]: walk(def.valueType as z.ZodType, opts, depth + 1) } : {};
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const value = opts.fill && k in opts.fill ? opts.fill[k] : walk(v, opts, depth + 1);
        if (value !== undefined) out[opts.name(k)] = value;
      }
      return out;
    }
    default:
      return "x";
  }
}

export type Leaf = { path: (string | number)[]; type: string };

/** A field schema's kind: zod's type name, an int64 string as "int64", through `.optional()`. */
function kindOf(schema: z.ZodType): string {
  const def = defOf(schema);
  if (def.type === "optional") return kindOf(def.innerType as z.ZodType);
  if (def.type === "string" && Array.isArray(def.checks) && def.checks.length) return "int64";
  return def.type;
}

/**
 * Every field of `body` (generated with JSON names) by path, with the type of its schema
 * (string, int64, boolean, enum, object, ...), for refusals aimed at one field.
 */
export function leavesOf(schema: z.ZodType, body: unknown, path: (string | number)[] = [], out: Leaf[] = []): Leaf[] {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
      return leavesOf(def.innerType as z.ZodType, body, path, out);
    case "pipe":
      return leavesOf(def.in as z.ZodType, body, path, out);
    case "lazy":
      return leavesOf((def.getter as () => z.ZodType)(), body, path, out);
    case "union":
      return leavesOf((def.options as z.ZodType[])[0]!, body, path, out);
    case "array":
      if (Array.isArray(body)) body.forEach((b, i) => leavesOf(def.element as z.ZodType, b, [...path, i], out));
      return out;
    case "object":
      if (body && typeof body === "object")
        for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
          const value = (body as Record<string, unknown>)[k];
          if (value === undefined) continue;
          out.push({ path: [...path, k], type: kindOf(v) });
          leavesOf(v, value, [...path, k], out);
        }
      return out;
    default:
      return out;
  }
}

/**
 * `value` (written with JSON names) with each field renamed by `name`, walking `schema`: map keys
 * and fields the schema does not know stay as they are.
 */
export function respell(schema: z.ZodType, value: unknown, name: (jsonName: string) => string): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
      return respell(def.innerType as z.ZodType, value, name);
    case "pipe":
      return respell(def.in as z.ZodType, value, name);
    case "lazy":
      return respell((def.getter as () => z.ZodType)(), value, name);
    case "union":
      return respell((def.options as z.ZodType[])[0]!, value, name);
    case "array":
      return Array.isArray(value) ? value.map((v) => respell(def.element as z.ZodType, v, name)) : value;
    case "record":
      return value && typeof value === "object" && !Array.isArray(value)
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, respell(def.valueType as z.ZodType, v, name)]))
        : value;
    case "object": {
      if (!value || typeof value !== "object" || Array.isArray(value)) return value;
      const shape = def.shape as Record<string, z.ZodType>;
      return Object.fromEntries(Object.entries(value).map(([k, v]) => (shape[k] ? [name(k), respell(shape[k], v, name)] : [k, v])));
    }
    default:
      return value;
  }
}
