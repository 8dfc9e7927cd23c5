/**
 * Values a generated schema accepts. By default the smallest: required fields only, the first
 * enum value, empty arrays, placeholder strings. Tests use it to reach past contract validation
 * (e.g. to check authorization on every operation); `fill` overrides chosen fields by name,
 * anywhere. `opts.optional` includes every optional field instead (arrays with one item, maps
 * with one entry) or sends each as null; `opts.name` writes each field under another name (its
 * proto name, for protobuf's JSON mapping).
 */
import type { z } from "zod";

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

export type SampleOptions = {
  /** What to do with an optional field: leave it out (the default), include it, or send it as null. */
  optional?: "omit" | "include" | "null";
  /** The name each field is written under (default: its own). */
  name?: (jsonName: string) => string;
};

/** How deep optional parts are followed when they are included. */
const MAX_DEPTH = 6;
/** A map's key when maps get an entry: data, the same whatever `name` does. */
export const SAMPLE_MAP_KEY = "map_key_1";

export function sampleValue(schema: z.ZodType, fill: Record<string, unknown> = {}, opts: SampleOptions = {}, depth = 0): unknown {
  const def = defOf(schema);
  const deeper = opts.optional === "include" && depth < MAX_DEPTH;
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
      return deeper ? [sampleValue(def.element as z.ZodType, fill, opts, depth + 1)] : [];
    case "optional":
      if (opts.optional === "null") return null;
      return deeper ? sampleValue(def.innerType as z.ZodType, fill, opts, depth) : undefined;
    case "union":
      return sampleValue((def.options as z.ZodType[])[0]!, fill, opts, depth);
    case "pipe":
      return sampleValue(def.in as z.ZodType, fill, opts, depth);
    case "lazy":
      return depth > 8 ? {} : sampleValue((def.getter as () => z.ZodType)(), fill, opts, depth + 1);
    case "record":
      return deeper ? { [SAMPLE_MAP_KEY]: sampleValue(def.valueType as z.ZodType, fill, opts, depth + 1) } : {};
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const value = k in fill ? fill[k] : sampleValue(v, fill, opts, depth + 1);
        if (value !== undefined) out[opts.name ? opts.name(k) : k] = value;
      }
      return out;
    }
    default:
      return null;
  }
}
