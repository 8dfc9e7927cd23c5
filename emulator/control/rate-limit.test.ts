import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limit.js";

describe("rate limiter", () => {
  it("allows 10 per organization per one-second window, then refuses until the next window", () => {
    let t = 0;
    const rl = new RateLimiter(10, 1000, () => t);
    const seen = Array.from({ length: 11 }, () => rl.hit("org-a"));
    expect(seen.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(seen.map((d) => d.remaining).slice(0, 3)).toEqual([9, 8, 7]);
    expect(seen[10]).toEqual({ allowed: false, limit: 10, remaining: 0 });
    expect(rl.hit("org-b").allowed).toBe(true);
    t = 999;
    expect(rl.hit("org-a").allowed).toBe(false);
    t = 1000;
    expect(rl.hit("org-a")).toEqual({ allowed: true, limit: 10, remaining: 9 });
    rl.clear();
    expect(rl.hit("org-a").remaining).toBe(9);
  });
});
