/**
 * Protobuf's JSON mapping at the request boundary. The service reads request bodies with
 * protojson (its gateway's parser), which is more forgiving than a strict reading of the
 * document: every field may be sent under its JSON name (`organizationId`) or its proto name
 * (`organization_id`), at any depth, and `null` for a field means it is not set. This module
 * turns such a body into the one the contracts describe (JSON names, no nulls), walking the
 * operation's own zod schema, so that every reader downstream sees one spelling; the stamp and
 * the fingerprint still cover the bytes as sent. Refused, as protojson refuses them: one field
 * sent under both names in one object. Type mismatches (a number for a string field, an enum
 * by number) are left for the contract parse to refuse. docs/wire-format.md says what is
 * accepted and what the emulator cannot know.
 */
import type { z } from "zod";

/**
 * A field's proto name: the snake_case of its JSON name (`clientDataJson` ->
 * `client_data_json`, `oauth2CredentialId` -> `oauth2_credential_id`). The documents carry only
 * JSON names; protoc derives each JSON name from the proto name by the inverse rule.
 */
export const protoName = (jsonName: string): string => jsonName.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** A field the contract does not describe, read under either name; null (not set) reads as undefined. */
export function fieldOf(object: unknown, jsonName: string): unknown {
  if (!object || typeof object !== "object" || Array.isArray(object)) return undefined;
  const o = object as Record<string, unknown>;
  return (Object.hasOwn(o, jsonName) ? o[jsonName] : o[protoName(jsonName)]) ?? undefined;
}

/** What the walk needs of a schema: the fields of an object (by both names), an array's items, a map's values. */
type Node = {
  fields?: Map<string, Field>;
  /** An object that keeps fields it does not name (`z.looseObject`). */
  loose?: boolean;
  items?: () => Node;
  /** A map's values (`z.record`): its keys are data, never renamed. */
  values?: () => Node;
};
type Field = { name: string; node: () => Node };

type Def = { type: string; [k: string]: unknown };
const defOf = (s: z.ZodType): Def => (s as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas a value may be read by: wrappers (optional, lazy, pipe) unwrapped, unions opened. */
function concrete(schema: z.ZodType, out: Set<z.ZodType>): void {
  const def = defOf(schema);
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
      return concrete(def.innerType as z.ZodType, out);
    case "lazy":
      // The lazy schema's own cached inner schema, so that a recursive definition is one node.
      return concrete((schema as unknown as { _zod: { innerType: z.ZodType } })._zod.innerType, out);
    case "pipe":
      return concrete(def.in as z.ZodType, out);
    case "union":
      for (const o of def.options as z.ZodType[]) concrete(o, out);
      return;
    default:
      out.add(schema);
  }
}

const once = <T>(f: () => T): (() => T) => {
  let v: T | undefined;
  return () => (v ??= f());
};

const LEAF: Node = {};
const nodes = new WeakMap<z.ZodType, Node>();

function nodeOf(schema: z.ZodType): Node {
  let n = nodes.get(schema);
  if (!n) nodes.set(schema, (n = build([schema])));
  return n;
}

/** One node for the schemas a value may match (a union's objects merge their fields). */
function build(schemas: z.ZodType[]): Node {
  const parts = new Set<z.ZodType>();
  for (const s of schemas) concrete(s, parts);
  const fieldSchemas = new Map<string, z.ZodType[]>();
  const items: z.ZodType[] = [];
  const values: z.ZodType[] = [];
  let object = false;
  let loose = false;
  for (const s of parts) {
    const def = defOf(s);
    if (def.type === "object") {
      object = true;
      if (def.catchall) loose = true;
      for (const [k, v] of Object.entries(def.shape as Record<string, z.ZodType>)) fieldSchemas.set(k, [...(fieldSchemas.get(k) ?? []), v]);
    } else if (def.type === "array") items.push(def.element as z.ZodType);
    else if (def.type === "record") values.push(def.valueType as z.ZodType);
  }
  const merged = (ss: z.ZodType[]) => once(() => (ss.length === 1 ? nodeOf(ss[0]!) : build(ss)));
  if (!object && !items.length && !values.length) return LEAF;
  const node: Node = {};
  if (object) {
    node.fields = new Map();
    for (const [name, ss] of fieldSchemas) node.fields.set(name, { name, node: merged(ss) });
    // Proto names after every JSON name, so that no proto name shadows another field's JSON name.
    for (const [name, field] of [...node.fields]) if (!node.fields.has(protoName(name))) node.fields.set(protoName(name), field);
    node.loose = loose;
  }
  if (items.length) node.items = merged(items);
  if (values.length) node.values = merged(values);
  return node;
}

/** Where the mapping refuses a body: the field (by its JSON name) and why. */
export type Refusal = { path: PropertyKey[]; why: string };

class Refused extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.why);
  }
}

/** Sets an own property, `__proto__` included (a JSON body may carry one as data). */
function put(out: Record<string, unknown>, key: string, value: unknown): void {
  if (key === "__proto__") Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
  else out[key] = value;
}

function read(value: unknown, node: Node, path: PropertyKey[]): unknown {
  if (node === LEAF || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    if (!node.items) return value;
    const items = node.items();
    if (items === LEAF) return value;
    // null items stay: protojson refuses them, and so does the contract.
    return value.map((v, i) => {
      path.push(i);
      const out = read(v, items, path);
      path.pop();
      return out;
    });
  }
  const o = value as Record<string, unknown>;
  if (node.fields) {
    const out: Record<string, unknown> = {};
    const sentAs = new Map<string, string>();
    for (const key of Object.keys(o)) {
      const field = node.fields.get(key);
      if (!field) {
        // Unknown fields are ignored (protojson's DiscardUnknown), except where the contract keeps them.
        if (node.loose) put(out, key, o[key]);
        continue;
      }
      const first = sentAs.get(field.name);
      // protojson refuses a field set twice before it looks at the value, null included.
      if (first !== undefined) throw new Refused({ path: [...path, field.name], why: `duplicate field: sent as both "${first}" and "${key}"` });
      sentAs.set(field.name, key);
      const v = o[key];
      if (v === null) continue;
      path.push(field.name);
      out[field.name] = read(v, field.node(), path);
      path.pop();
    }
    return out;
  }
  if (node.values) {
    const values = node.values();
    if (values === LEAF) return value;
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(o)) {
      path.push(key);
      put(out, key, read(o[key], values, path));
      path.pop();
    }
    return out;
  }
  return value;
}

/**
 * `body` as the contract `schema` names it: each field under its JSON name, null fields left out
 * (then absent, so a required one is "required field missing"), unknown fields dropped (kept where
 * the schema keeps them), map keys untouched. A field sent under both names is refused.
 */
export function fromProtoJson(schema: z.ZodType, body: unknown): { value: unknown } | { refused: Refusal } {
  try {
    return { value: read(body, nodeOf(schema), []) };
  } catch (e) {
    if (e instanceof Refused) return { refused: e.refusal };
    throw e;
  }
}
