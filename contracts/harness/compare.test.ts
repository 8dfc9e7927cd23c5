import { describe, expect, it } from "vitest";
import { diffShapes, isEnumValue, shapeOf } from "./compare.js";

const diff = (a: unknown, b: unknown) => diffShapes(shapeOf(a), shapeOf(b));

describe("structural comparison", () => {
  it("ignores values expected to differ: ids, names, timestamps, hex", () => {
    const a = { activity: { id: "3f2a1b4c-0000-4000-8000-0123456789ab", fingerprint: "sha256:ab", createdAt: { seconds: "1", nanos: "2" }, status: "ACTIVITY_STATUS_COMPLETED" }, n: 3 };
    const b = { activity: { id: "99999999-0000-4000-8000-0123456789ab", fingerprint: "sha256:cd", createdAt: { seconds: "9", nanos: "0" }, status: "ACTIVITY_STATUS_COMPLETED" }, n: 4 };
    expect(diff(a, b)).toEqual([]);
  });

  it("reports missing and extra fields, type changes and enum values", () => {
    expect(diff({ a: { b: "x", c: 1 } }, { a: { c: 1, d: true } })).toEqual([
      { path: "a.b", kind: "missing", a: "string", b: undefined },
      { path: "a.d", kind: "extra", a: undefined, b: "boolean" },
    ]);
    expect(diff({ a: "1" }, { a: 1 })).toEqual([{ path: "a", kind: "type", a: "string", b: "number" }]);
    expect(diff({ s: "ACTIVITY_STATUS_COMPLETED" }, { s: "ACTIVITY_STATUS_DONE" })).toEqual([{ path: "s", kind: "enum", a: ["ACTIVITY_STATUS_COMPLETED"], b: ["ACTIVITY_STATUS_DONE"] }]);
    expect(diff({ s: "TAG_TYPE_USER" }, { s: "user" })).toEqual([{ path: "s", kind: "enum", a: ["TAG_TYPE_USER"], b: [] }]);
    expect(diff({ ok: true }, { ok: false })).toEqual([{ path: "ok", kind: "value", a: [true], b: [false] }]);
    expect(diff({ code: 16 }, { code: 7 })).toEqual([{ path: "code", kind: "value", a: [16], b: [7] }]);
  });

  it("merges array elements, so order and length do not matter but element shapes do", () => {
    const a = { users: [{ id: "1", email: "a@x" }, { id: "2" }] };
    expect(diff(a, { users: [{ id: "9" }, { id: "8", email: "b@y" }, { id: "7" }] })).toEqual([]);
    expect(diff(a, { users: [{ id: "9" }] })).toEqual([{ path: "users[].email", kind: "missing", a: "string", b: undefined }]);
    expect(diff({ t: [] }, { t: [{ x: 1 }] })).toEqual([]);
    expect(diff({ t: ["TAG_TYPE_USER"] }, { t: ["TAG_TYPE_USER", "TAG_TYPE_PRIVATE_KEY"] })).toEqual([{ path: "t[]", kind: "enum", a: ["TAG_TYPE_USER"], b: ["TAG_TYPE_PRIVATE_KEY", "TAG_TYPE_USER"] }]);
  });

  it("knows enum values from the contracts and by their form", () => {
    expect(isEnumValue("CURVE_SECP256K1")).toBe(true);
    expect(isEnumValue("SOME_NEW_VALUE")).toBe(true);
    expect(isEnumValue("conformance-1a2b")).toBe(false);
    expect(isEnumValue("0A1B")).toBe(false);
  });
});
