import { describe, expect, it } from "vitest";
import { Lru } from "./lru.js";

describe("Lru", () => {
  it("evicts the least recently used entry past its limit", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    expect(lru.get("a")).toBe(1); // a becomes the most recent
    lru.set("c", 3);
    expect([...lru.keys()]).toEqual(["a", "c"]);
    expect(lru.get("b")).toBeUndefined();
    expect(lru.size).toBe(2);
  });

  it("re-setting a key refreshes it without growing", () => {
    const lru = new Lru<string, number>(2);
    lru.set("a", 1);
    lru.set("b", 2);
    lru.set("a", 10);
    lru.set("c", 3);
    expect([...lru.keys()]).toEqual(["a", "c"]);
    expect(lru.get("a")).toBe(10);
  });

  it("has() does not refresh; delete, deleteWhere and clear drop entries", () => {
    const lru = new Lru<string, number>(3);
    lru.set("w1|a", 1);
    lru.set("w2|b", 2);
    lru.set("w1|c", 3);
    expect(lru.has("w1|a")).toBe(true);
    expect([...lru.keys()][0]).toBe("w1|a");
    lru.deleteWhere((k) => k.startsWith("w1|"));
    expect([...lru.keys()]).toEqual(["w2|b"]);
    expect(lru.delete("w2|b")).toBe(true);
    expect(lru.delete("w2|b")).toBe(false);
    lru.set("x", 0);
    lru.clear();
    expect(lru.size).toBe(0);
  });

  it("keeps falsy values", () => {
    const lru = new Lru<string, number>(1);
    lru.set("zero", 0);
    expect(lru.get("zero")).toBe(0);
  });

  it("rejects a limit below 1", () => {
    expect(() => new Lru(0)).toThrow(RangeError);
  });
});
