import { describe, expect, it } from "vitest";
import { parseClockStart, stampReferenceTime, startedClock, systemClock } from "./clock.js";

describe("stampReferenceTime", () => {
  const HOST = 1_800_000_000_000;
  it("is the emulated time when the clock has not been moved", () => {
    const c = systemClock();
    const ref = stampReferenceTime(c, String(HOST), HOST);
    expect(Math.abs(ref - Date.now())).toBeLessThan(60_000);
  });

  it("follows whichever clock is nearer the stamp once the clock is moved", () => {
    const days = 3 * 86_400_000;
    const c = { offsetMs: days, now: () => HOST + days };
    // An SDK stamps with the host clock: checked against the host clock.
    expect(stampReferenceTime(c, String(HOST - 1000), HOST)).toBe(HOST);
    // A client stamping with the emulated time: checked against the emulated time.
    expect(stampReferenceTime(c, String(HOST + days - 1000), HOST)).toBe(HOST + days);
    // Malformed stamps are left to the liveness check itself.
    expect(stampReferenceTime(c, "soon", HOST)).toBe(HOST + days);
  });
});

describe("a clock started at a fixed time (--clock)", () => {
  const START = Date.UTC(2030, 0, 1);

  it("frozen: stays at the start until moved, and a restart goes back to it", () => {
    const c = startedClock(START, "frozen");
    expect(c.now()).toBe(START);
    c.offsetMs = 5_000;
    expect(c.now()).toBe(START + 5_000);
    c.restart();
    expect(c.now()).toBe(START);
  });

  it("ticking: runs from the start at the host's pace", async () => {
    const c = startedClock(START, "ticking");
    await new Promise((r) => setTimeout(r, 30));
    expect(c.now() - START).toBeGreaterThanOrEqual(25);
    expect(c.now() - START).toBeLessThan(5_000);
  });

  it("checks liveness against whichever of the two clocks is nearer the stamp, moved or not", () => {
    const HOST = 1_800_000_000_000;
    const c = startedClock(START, "frozen");
    expect(stampReferenceTime(c, String(HOST - 1000), HOST)).toBe(HOST); // an SDK stamping with the host clock
    expect(stampReferenceTime(c, String(START), HOST)).toBe(START); // a client stamping with the emulated time
  });

  it("takes ISO 8601 instants and milliseconds, and names what it wants otherwise", () => {
    expect(parseClockStart("2030-01-01T00:00:00Z")).toBe(START);
    expect(parseClockStart("2030-01-01")).toBe(START);
    expect(parseClockStart(String(START))).toBe(START);
    expect(parseClockStart(START)).toBe(START);
    for (const bad of ["tomorrow", "", "-5", "2030-13-45T00:00:00Z"]) expect(() => parseClockStart(bad)).toThrow(/ISO 8601 instant such as 2030-01-01T00:00:00Z/);
  });
});
