/**
 * The smallest value a generated schema accepts: required fields only, the first enum value,
 * empty arrays, placeholder strings. Tests use it to reach past contract validation (e.g. to
 * check authorization on every operation); `fill` overrides chosen fields by name, anywhere.
 */
import type { z } from "zod";

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

export function sampleValue(schema: z.ZodType, fill: Record<string, unknown> = {}, depth = 0): unknown {
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
      return [];
    case "optional":
      return undefined;
    case "union":
      return sampleValue((def.options as z.ZodType[])[0]!, fill, depth);
    case "pipe":
      return sampleValue(def.in as z.ZodType, fill, depth);
    case "lazy":
      return depth > 8 ? {} : sampleValue((def.getter as () => z.ZodType)(), fill, depth + 1);
    case "record":
      return {};
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const value = k in fill ? fill[k] : sampleValue(v, fill, depth + 1);
        if (value !== undefined) out[k] = value;
      }
      return out;
    }
    default:
      return null;
  }
}
