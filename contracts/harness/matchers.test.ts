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
