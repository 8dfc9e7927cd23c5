import { describe, expect, it } from "vitest";
import { stampReferenceTime, systemClock } from "./clock.js";

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
