/**
 * Random values of the shape a (zod v4) contract schema describes: objects, strings, enums,
 * arrays, booleans, numbers, optionals, unions, literals, records, lazies and pipes. Fields
 * named in `fill` take the given value wherever they appear (organizationId, timestampMs...).
 * Every object key written is recorded with whether the schema requires it, so mutations can
 * drop a required field or change a field's type.
 */
import type { z } from "zod";
import type { Rng } from "./prng.js";

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

export type FieldPath = (string | number)[];
export type Generated = { value: unknown; fields: { path: FieldPath; required: boolean }[] };

const ALPHABET = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";
const MAX_DEPTH = 8;

export function generateValue(schema: z.ZodType, rng: Rng, fill: Record<string, () => unknown> = {}): Generated {
  const fields: Generated["fields"] = [];
  const value = walk(schema, rng, fill, [], fields, 0);
  return { value, fields };
}

function randomString(rng: Rng): string {
  if (rng.chance(0.2)) {
    const hex = () => rng.int(16).toString(16);
    const part = (n: number) => Array.from({ length: n }, hex).join("");
    return `${part(8)}-${part(4)}-4${part(3)}-8${part(3)}-${part(12)}`;
  }
  const n = 1 + rng.int(12);
  return Array.from({ length: n }, () => rng.pick([...ALPHABET])).join("");
}

function walk(schema: z.ZodType, rng: Rng, fill: Record<string, () => unknown>, path: FieldPath, fields: Generated["fields"], depth: number): unknown {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      // A string with checks is a decimal integer in the generated contracts (int64).
      return Array.isArray(def.checks) && def.checks.length ? String(rng.int(1000)) : randomString(rng);
    case "number":
      return rng.int(100);
    case "boolean":
      return rng.chance(0.5);
    case "enum":
      return rng.pick(Object.values(def.entries as Record<string, string>));
    case "literal":
      return (def.values as unknown[])[0];
    case "array": {
      const n = depth >= MAX_DEPTH ? 0 : rng.int(3);
      return Array.from({ length: n }, (_, i) => walk(def.element as z.ZodType, rng, fill, [...path, i], fields, depth + 1));
    }
    case "optional":
      return depth < MAX_DEPTH && rng.chance(0.5) ? walk(def.innerType as z.ZodType, rng, fill, path, fields, depth) : undefined;
    case "nullable":
    case "default":
      return walk(def.innerType as z.ZodType, rng, fill, path, fields, depth);
    case "union":
      return walk(rng.pick(def.options as z.ZodType[]), rng, fill, path, fields, depth);
    case "pipe":
      return walk(def.in as z.ZodType, rng, fill, path, fields, depth);
    case "lazy":
      return depth >= MAX_DEPTH ? {} : walk((def.getter as () => z.ZodType)(), rng, fill, path, fields, depth + 1);
    case "record":
      return rng.chance(0.5) ? { [randomString(rng)]: walk(def.valueType as z.ZodType, rng, fill, [...path, "*"], [], depth + 1) } : {};
    case "unknown":
    case "any":
      return rng.pick([randomString(rng), rng.int(10), true, null, {}, []]);
    case "object": {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) {
        const required = defOf(v).type !== "optional";
        const filler = fill[k] as (() => unknown) | undefined;
        const value = filler && (required || rng.chance(0.5)) ? filler() : walk(v, rng, fill, [...path, k], fields, depth + 1);
        if (value === undefined) continue;
        out[k] = value;
        fields.push({ path: [...path, k], required });
      }
      return out;
    }
    default:
      return null;
  }
}
