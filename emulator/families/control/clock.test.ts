import { describe, expect, it } from "vitest";
import { systemClock } from "../../core/clock.js";
import { TurnkeyError } from "../../core/errors.js";
import { clockView, moveClock } from "./clock.js";

const HOST = Date.UTC(2026, 0, 1);
const violation = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TurnkeyError);
    const err = e as TurnkeyError;
    expect(err.httpStatus).toBe(400);
    return (err.details.find((d) => d.fieldViolations) as unknown as { fieldViolations: { field: string }[] }).fieldViolations[0]!.field;
  }
  throw new Error("expected a TurnkeyError");
};

describe("control clock", () => {
  it("sets to an instant given in ms or ISO 8601, relative to the host clock", () => {
    const c = systemClock();
    expect(moveClock(c, { set: HOST + 5_000 }, HOST).offsetMs).toBe(HOST + 5_000 - HOST);
    expect(moveClock(c, { set: "2030-01-01T00:00:00Z" }, HOST).offsetMs).toBe(Date.UTC(2030, 0, 1) - HOST);
    expect(moveClock(c, { set: String(HOST - 60_000) }, HOST).offsetMs).toBe(-60_000);
  });

  it("advances by a non-negative amount and accumulates", () => {
    const c = systemClock();
    moveClock(c, { advanceMs: 1000 });
    moveClock(c, { advanceMs: 2500 });
    expect(c.offsetMs).toBe(3500);
    const v = clockView(c);
    expect(v.offsetMs).toBe(3500);
    expect(new Date(v.iso).getTime()).toBe(v.now);
  });

  it("refuses bad input naming the field, and leaves the clock alone", () => {
    const c = systemClock(42);
    expect(violation(() => moveClock(c, { advanceMs: -1 }))).toBe("advanceMs");
    expect(violation(() => moveClock(c, { advanceMs: 1.5 }))).toBe("advanceMs");
    expect(violation(() => moveClock(c, { advanceMs: "10" }))).toBe("advanceMs");
    expect(violation(() => moveClock(c, { set: "tomorrow" }))).toBe("set");
    expect(violation(() => moveClock(c, { set: -5 }))).toBe("set");
    expect(violation(() => moveClock(c, {}))).toBe("set");
    expect(violation(() => moveClock(c, { set: 1, advanceMs: 1 }))).toBe("advanceMs");
    expect(violation(() => moveClock(c, { offset: 1 }))).toBe("offset");
    expect(c.offsetMs).toBe(42);
  });
});
