import { describe, expect, it } from "vitest";
import { matchField } from "./matchers.js";

const check = (matcher: Parameters<typeof matchField>[0], value: unknown) => matchField(matcher, { value, interpolate: (v) => v, captured: (n) => ({ id: "abc" })[n] });

describe("field matchers", () => {
  it("pass when they hold", () => {
    expect(check({ exists: true, type: "string", regex: "^a", format: "hex", length: 4, oneOf: ["abcd", "x"] }, "abcd")).toEqual([]);
    expect(check({ exists: false }, undefined)).toEqual([]);
    expect(check({ contains: "b", notContains: "c", minLength: 1 }, ["a", "b"])).toEqual([]);
    expect(check({ equalsCaptured: "id" }, "abc")).toEqual([]);
    expect(check(["x", { y: 1 }], ["x", { y: 1 }])).toEqual([]);
    expect(check(7, 7)).toEqual([]);
    expect(check({ format: "uuid" }, "3f2a1b4c-0000-4000-8000-0123456789ab")).toEqual([]);
  });
  it("fail with a message when they do not", () => {
    expect(check({ exists: true }, undefined)).toEqual(["expected a value, found none"]);
    expect(check({ exists: false }, 0)[0]).toMatch(/expected no value/);
    expect(check({ type: "array" }, {})[0]).toMatch(/expected type array, found object/);
    expect(check("a", "b")[0]).toBe('expected "a", found "b"');
    expect(check({ equals: 1 }, "1")).toHaveLength(1);
    expect(check({ regex: "^x$" }, 5)).toHaveLength(1);
    expect(check({ format: "uuid" }, "nope")).toHaveLength(1);
    expect(check({ oneOf: [1, 2] }, 3)).toHaveLength(1);
    expect(check({ equalsCaptured: "id" }, "abd")[0]).toMatch(/captured id/);
    expect(check({ length: 2 }, [1])).toHaveLength(1);
    expect(check({ minLength: 2 }, "a")).toHaveLength(1);
    expect(check({ contains: "z" }, ["a"])).toHaveLength(1);
    expect(check({ notContains: "a" }, ["a"])).toHaveLength(1);
    expect(check({ type: "string" }, undefined)).toEqual(["expected a value, found none"]);
  });
});

describe("numeric matchers", () => {
  it("compare decimal strings exactly, beyond 2^53", () => {
    expect(check({ gt: "10000000000" }, "10032880000")).toEqual([]);
    expect(check({ gt: "9007199254740993" }, "9007199254740994")).toEqual([]);
    expect(check({ gt: "9007199254740993" }, "9007199254740993")).toEqual(['expected a value > "9007199254740993", found "9007199254740993"']);
    expect(check({ gte: "5", lte: 5 }, "5")).toEqual([]);
    expect(check({ lt: 0 }, "-1")).toEqual([]);
    expect(check({ gt: "0" }, "0")).toHaveLength(1);
    expect(check({ lt: "1.5" }, 1.25)).toEqual([]);
    expect(check({ gte: "0.05" }, "0.04")).toEqual(['expected a value >= "0.05", found "0.04"']);
  });
  it("take their bound interpolated, e.g. from a capture", () => {
    const interpolate = (v: unknown) => (v === "${captures.before}" ? "100" : v);
    expect(matchField({ gt: "${captures.before}" }, { value: "101", interpolate })).toEqual([]);
    expect(matchField({ gt: "${captures.before}" }, { value: "100", interpolate })).toEqual(['expected a value > "100", found "100"']);
  });
  it("refuse what is not a number", () => {
    expect(check({ gt: "1" }, "ten")[0]).toBe('expected a number to compare with "1" (gt), found "ten"');
    expect(check({ gt: "one" }, "2")[0]).toMatch(/expected a number to compare with "one"/);
    expect(check({ lt: 1 }, undefined)).toEqual(["expected a value, found none"]);
    expect(check({ gt: 1 }, null)).toHaveLength(1);
  });
});
