/**
 * Request bodies in the spellings protobuf's JSON mapping reads: fields under their JSON name or
 * their proto name (the snake_case of the JSON name, as the service's proto files spell them,
 * e.g. tkhq/rust-sdk proto/external/activity/v1/activity.proto `timestamp_ms`,
 * `organization_id`), and the fields of a body by path and kind. Bodies themselves come from
 * contracts/sample.ts (`sampleValue` with a `name`) or test/fuzz/zod-generate.ts.
 */
import type { z } from "zod";

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The proto name of a JSON name: written here from the rule, not taken from the emulator. */
export const snakeCase = (jsonName: string): string => jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

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
