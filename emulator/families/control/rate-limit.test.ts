import { describe, expect, it } from "vitest";
import { checkRateLimitOption, RateLimiter } from "./rate-limit.js";

const org = (organization: string, tree = organization, separate = false) => ({ organization, tree, separate });

describe("rate limiter", () => {
  it("allows 10 per organization per one-second window, then refuses until the next window", () => {
    let t = 0;
    const rl = new RateLimiter(null, 1000, () => t);
    const seen = Array.from({ length: 11 }, () => rl.hit(org("org-a")));
    expect(seen.slice(0, 10).every((d) => d.allowed)).toBe(true);
    expect(seen.map((d) => d.remaining).slice(0, 3)).toEqual([9, 8, 7]);
    expect(seen[10]).toEqual({ allowed: false, limit: 10, remaining: 0 });
    expect(rl.hit(org("org-b")).allowed).toBe(true);
    t = 999;
    expect(rl.hit(org("org-a")).allowed).toBe(false);
    t = 1000;
    expect(rl.hit(org("org-a"))).toEqual({ allowed: true, limit: 10, remaining: 9 });
    rl.clear();
    expect(rl.hit(org("org-a")).remaining).toBe(9);
  });

  it("holds a tree of organizations to a plan's limit together, each organization still to 10", () => {
    const t = 0;
    const free = new RateLimiter(1, 1000, () => t);
    expect(free.hit(org("sub-1", "parent"))).toEqual({ allowed: true, limit: 1, remaining: 0 });
    expect(free.hit(org("sub-2", "parent"))).toEqual({ allowed: false, limit: 1, remaining: 0 });
    expect(free.hit(org("other"))).toEqual({ allowed: true, limit: 1, remaining: 0 });

    const enterprise = new RateLimiter(60, 1000, () => t);
    const one = Array.from({ length: 11 }, () => enterprise.hit(org("sub-1", "parent")));
    expect(one[0]).toEqual({ allowed: true, limit: 10, remaining: 9 }); // the organization's window is the tighter
    expect(one[10]).toEqual({ allowed: false, limit: 10, remaining: 0 });
    const spread = Array.from({ length: 55 }, (_, i) => enterprise.hit(org(`sub-${2 + (i % 6)}`, "parent")));
    // 10 of the tree's 60 went to sub-1, one of them refused: 49 more fit.
    expect(spread.filter((d) => d.allowed)).toHaveLength(50);
    expect(spread.at(-1)).toEqual({ allowed: false, limit: 60, remaining: 0 });
  });

  it("counts the separate-limit operations in a window of their own, 10 for the tree", () => {
    const free = new RateLimiter(1, 1000, () => 0);
    expect(free.hit(org("parent")).allowed).toBe(true);
    expect(free.hit(org("parent")).allowed).toBe(false);
    const sends = Array.from({ length: 12 }, (_, i) => free.hit(org(i % 2 ? "parent" : "sub", "parent", true)));
    expect(sends.map((d) => d.allowed)).toEqual([...Array(10).fill(true), false, false]);
    expect(sends[9]).toEqual({ allowed: true, limit: 10, remaining: 0 });
    expect(sends[10]).toEqual({ allowed: false, limit: 10, remaining: 0 });
    // Neither the plan's window nor the organization's counted them.
    const fresh = new RateLimiter(1, 1000, () => 0);
    for (let i = 0; i < 10; i++) fresh.hit(org("parent", "parent", true));
    expect(fresh.hit(org("parent"))).toEqual({ allowed: true, limit: 1, remaining: 0 });
  });

  it("reads the option: true, false, or a whole number from 1; anything else is refused naming it", () => {
    expect(checkRateLimitOption(undefined)).toBe(false);
    expect(checkRateLimitOption(true)).toBe(true);
    expect(checkRateLimitOption(1)).toBe(1);
    for (const bad of [0, 1.5, -3, "1", 2_000_000]) expect(() => checkRateLimitOption(bad)).toThrow(/rateLimit must be true .* or a plan's requests per second/);
  });
});
