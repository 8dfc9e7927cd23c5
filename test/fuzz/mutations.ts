/**
 * Hostile variants of a well-shaped request body, each as the exact bytes to send: wrong
 * types, a required field dropped, unknown fields, a huge string, deep nesting, prototype
 * keys, invalid UTF-8, NUL and control characters, non-object bodies, and a field respelled as
 * protobuf's JSON mapping allows or refuses (proto name, null, both names at once).
 */
import type { Rng } from "./prng.js";
import type { FieldPath, Generated } from "./zod-generate.js";
import { snakeCase } from "./spellings.js";

export const MUTATIONS = ["wrong-type", "missing-required", "extra-fields", "huge-string", "deep-nesting", "proto-keys", "invalid-utf8", "control-chars", "not-an-object", "proto-spelling"] as const;
export type MutationKind = (typeof MUTATIONS)[number];
export type FuzzBody = { kind: "valid" | MutationKind; detail: string; bytes: Buffer };

const HUGE = 1024 * 1024;
const DEEP = 20_000;
/** Stands in for bytes that JSON.stringify cannot write (invalid UTF-8); swapped after serialising. */
const MARK = "@@FUZZ-RAW-BYTES@@";

const clone = <T>(v: T): T => structuredClone(v);
const show = (p: FieldPath) => p.map(String).join(".") || "(body)";

function getAt(root: unknown, path: FieldPath): unknown {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], root);
}
function setAt(root: Record<string, unknown>, path: FieldPath, value: unknown): void {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]!] = value;
}
function deleteAt(root: Record<string, unknown>, path: FieldPath): void {
  const parent = getAt(root, path.slice(0, -1)) as Record<string | number, unknown>;
  delete parent[path[path.length - 1]!];
}

/** Every string leaf of the value, by path. */
function stringPaths(v: unknown, path: FieldPath = [], out: FieldPath[] = []): FieldPath[] {
  if (typeof v === "string") out.push(path);
  else if (Array.isArray(v)) v.forEach((x, i) => stringPaths(x, [...path, i], out));
  else if (v && typeof v === "object") for (const [k, x] of Object.entries(v)) stringPaths(x, [...path, k], out);
  return out;
}
/** Every object (by path) inside the value, the root included. */
function objectPaths(v: unknown, path: FieldPath = [], out: FieldPath[] = []): FieldPath[] {
  if (Array.isArray(v)) v.forEach((x, i) => objectPaths(x, [...path, i], out));
  else if (v && typeof v === "object") {
    out.push(path);
    for (const [k, x] of Object.entries(v)) objectPaths(x, [...path, k], out);
  }
  return out;
}

function otherType(v: unknown, rng: Rng): unknown {
  const choices: unknown[] = [12345, -1.5, "a string", true, null, [], [1, "x"], { unexpected: "object" }, 1e308];
  const typeOf = (x: unknown) => (x === null ? "null" : Array.isArray(x) ? "array" : typeof x);
  const differing = choices.filter((c) => typeOf(c) !== typeOf(v));
  return rng.pick(differing);
}

/** JSON text nested DEEP levels (written directly: JSON.stringify itself would overflow the stack). */
function deepText(rng: Rng): string {
  return rng.chance(0.5) ? "[".repeat(DEEP) + "]".repeat(DEEP) : '{"a":'.repeat(DEEP) + '"bottom"' + "}".repeat(DEEP);
}

/** Serialises `body` with the value at `path` replaced by raw bytes. */
function withRawAt(body: Record<string, unknown>, path: FieldPath, raw: Buffer): Buffer {
  setAt(body, path, MARK);
  const [before, after] = JSON.stringify(body).split(JSON.stringify(MARK)) as [string, string];
  return Buffer.concat([Buffer.from(before, "utf8"), raw, Buffer.from(after, "utf8")]);
}

const INVALID_UTF8: Buffer[] = [
  Buffer.from([0xff, 0xfe]), // never valid
  Buffer.from([0xc0, 0x80]), // overlong NUL
  Buffer.from([0xed, 0xa0, 0x80]), // a UTF-16 surrogate encoded as UTF-8
  Buffer.from([0xe2, 0x82]), // truncated sequence
  Buffer.from([0xf8, 0x88, 0x80, 0x80, 0x80]), // 5-byte form
];
const CONTROL = ["\u0000", "a\u0000b", "\u0007\u001b[31mred\u001b[0m", "line\r\nInjected: header", "\u202eevil", "\u0008\u007f\u0085", "\ufeff\u200b"];

/** The envelope fields every request checks first; hostile values mostly go deeper. */
const ENVELOPE = new Set(["type", "timestampMs", "organizationId"]);
function pickPath(paths: FieldPath[], rng: Rng): FieldPath | undefined {
  const deeper = paths.filter((p) => !ENVELOPE.has(String(p[0])));
  return deeper.length && !rng.chance(0.15) ? rng.pick(deeper) : paths.length ? rng.pick(paths) : undefined;
}

const serialise = (v: unknown) => Buffer.from(JSON.stringify(v), "utf8");

export function mutate(kind: MutationKind, base: Generated, rng: Rng): FuzzBody {
  const body = clone(base.value) as Record<string, unknown>;
  const strings = stringPaths(body).filter((p) => p.length > 0);
  const anyField = pickPath(base.fields.map((f) => f.path), rng) ?? ["organizationId"];
  const aString = () => pickPath(strings, rng);
  switch (kind) {
    case "wrong-type": {
      const path = anyField;
      const v = otherType(getAt(body, path), rng);
      setAt(body, path, v);
      return { kind, detail: `${show(path)} = ${JSON.stringify(v)}`, bytes: serialise(body) };
    }
    case "missing-required": {
      const required = base.fields.filter((f) => f.required);
      const path = pickPath(required.map((f) => f.path), rng) ?? anyField;
      deleteAt(body, path);
      return { kind, detail: `without ${show(path)}`, bytes: serialise(body) };
    }
    case "extra-fields": {
      const at = rng.pick(objectPaths(body));
      const target = getAt(body, at) as Record<string, unknown>;
      target.fuzzExtraField = rng.pick(["x", 1, { nested: true }, [null]]);
      target[`unknown_${rng.int(1000)}`] = null;
      return { kind, detail: `extra keys in ${show(at)}`, bytes: serialise(body) };
    }
    case "huge-string": {
      const path = aString() ?? ["fuzzHuge"];
      setAt(body, path, rng.chance(0.5) ? "A".repeat(HUGE) : "\u00e9\u4e2d".repeat(HUGE / 5));
      return { kind, detail: `${show(path)} = ~1 MB string`, bytes: serialise(body) };
    }
    case "deep-nesting": {
      const path = rng.chance(0.5) ? anyField : [...(rng.pick(objectPaths(body))), "fuzzDeep"];
      return { kind, detail: `${show(path)} = ${DEEP}-deep nesting`, bytes: withRawAt(body, path, Buffer.from(deepText(rng), "utf8")) };
    }
    case "proto-keys": {
      const at = rng.pick(objectPaths(body));
      // JSON.parse makes "__proto__" an own key (as a server's JSON.parse would), so it serialises.
      const hostile = JSON.parse('{"__proto__":{"polluted":"yes","isRoot":true,"organizationId":"00000000-0000-4000-8000-000000000000"},"constructor":{"prototype":{"polluted":"yes"}},"prototype":{"polluted":"yes"}}');
      Object.assign(getAt(body, at) as object, hostile);
      return { kind, detail: `__proto__/constructor/prototype keys in ${show(at)}`, bytes: serialise(body) };
    }
    case "invalid-utf8": {
      const path = aString() ?? ["organizationId"];
      const raw = rng.pick(INVALID_UTF8);
      const bytes = withRawAt(body, path, Buffer.concat([Buffer.from('"x', "utf8"), raw, Buffer.from('y"', "utf8")]));
      return { kind, detail: `${show(path)} holds bytes ${raw.toString("hex")}`, bytes };
    }
    case "control-chars": {
      const path = aString() ?? ["organizationId"];
      const c = rng.pick(CONTROL);
      setAt(body, path, `${getAt(body, path) as string}${c}`);
      if (rng.chance(0.15)) {
        // A raw control byte outside any string: not JSON at all.
        return { kind, detail: `raw NUL byte after the body`, bytes: Buffer.concat([serialise(body), Buffer.from([0])]) };
      }
      return { kind, detail: `${show(path)} += ${JSON.stringify(c)}`, bytes: serialise(body) };
    }
    case "proto-spelling": {
      const path = anyField;
      const key = String(path[path.length - 1]);
      const parent = getAt(body, path.slice(0, -1)) as Record<string, unknown> | undefined;
      if (!parent || typeof parent !== "object" || !(key in parent)) return { kind, detail: "no field to respell", bytes: serialise(body) };
      const how = rng.pick(["proto name", "null", "both names"] as const);
      if (how === "null") parent[key] = null;
      else {
        // Written after the original, so the proto name comes last in the object.
        parent[snakeCase(key)] = parent[key];
        if (how === "proto name" && snakeCase(key) !== key) delete parent[key];
      }
      return { kind, detail: `${show(path)}: ${how}`, bytes: serialise(body) };
    }
    case "not-an-object": {
      const text = rng.pick(["[]", "null", "42", '"body"', "true", "{", "", '{"a":1}{"b":2}', "[" + JSON.stringify(body) + "]"]);
      return { kind, detail: `body ${JSON.stringify(text.slice(0, 20))}`, bytes: Buffer.from(text, "utf8") };
    }
  }
}
