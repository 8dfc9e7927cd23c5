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
  for (const s of parts) {
    const def = defOf(s);
    if (def.type === "object") {
      object = true;
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

/**
 * `value` read by `node`. An object, array or map that needs no change (JSON names, no nulls,
 * nothing changed inside) is returned as it is, so that a body already in the contract's
 * spelling costs no copy; fields the schema does not know are left for the contract to ignore
 * or keep.
 */
function read(value: unknown, node: Node, path: PropertyKey[]): unknown {
  if (node === LEAF || value === null || typeof value !== "object") return value;
  if (Array.isArray(value)) {
    const items = node.items?.();
    if (!items || items === LEAF) return value;
    let out: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      path.push(i);
      // null items stay: protojson refuses them, and so does the contract.
      const next = read(value[i], items, path);
      path.pop();
      if (next !== value[i]) out ??= value.slice(0, i);
      out?.push(next);
    }
    return out ?? value;
  }
  const o = value as Record<string, unknown>;
  const values = node.values?.();
  if (!node.fields && (!values || values === LEAF)) return value;
  const keys = Object.keys(o);
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const v = o[key];
    const field = node.fields?.get(key);
    let name = key;
    let next = v;
    if (field) {
      name = field.name;
      // protojson refuses a field set twice before it looks at the value, null included.
      if (key !== name && Object.hasOwn(o, name)) throw new Refused({ path: [...path, name], why: `duplicate field: sent as both "${name}" and "${key}"` });
      if (v !== null) next = child(v, field.node(), path, name);
    } else if (values) next = child(v, values, path, key);
    const drop = field !== undefined && v === null;
    if (!out && (drop || name !== key || next !== v)) {
      out = {};
      for (let j = 0; j < i; j++) put(out, keys[j]!, o[keys[j]!]);
    }
    if (out && !drop) put(out, name, next);
  }
  return out ?? value;
}

function child(value: unknown, node: Node, path: PropertyKey[], at: PropertyKey): unknown {
  if (node === LEAF) return value;
  path.push(at);
  const out = read(value, node, path);
  path.pop();
  return out;
}

/**
 * `body` as the contract `schema` names it: each field under its JSON name, null fields left out
 * (then absent, so a required one is "required field missing"), map keys and fields the schema
 * does not know untouched (the contract ignores them, as protojson's DiscardUnknown does). A
 * field sent under both names is refused.
 */
export function fromProtoJson(schema: z.ZodType, body: unknown): { value: unknown } | { refused: Refusal } {
  try {
    return { value: read(body, nodeOf(schema), []) };
  } catch (e) {
    if (e instanceof Refused) return { refused: e.refusal };
    throw e;
  }
}
