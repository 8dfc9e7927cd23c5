/**
 * The emulated clock as the control API shows and moves it. The clock itself (an offset on
 * the host clock) is `rt.clock` (emulator/core/clock.ts); everything that expires reads it.
 *
 * `set` jumps to an instant (forwards or backwards); `advanceMs` only moves forwards, so a
 * test that advances can never make an already expired thing valid again.
 */
import { invalidArgument } from "../../core/errors.js";
import type { Clock } from "../../core/clock.js";

export type OffsetClock = Clock & { offsetMs: number };
export type ClockView = { now: number; iso: string; offsetMs: number };

export function clockView(clock: OffsetClock): ClockView {
  const now = clock.now();
  return { now, iso: new Date(now).toISOString(), offsetMs: clock.offsetMs };
}

/** Parses `{set: ms | ISO}` or `{advanceMs: n >= 0}`; returns the new offset from the clock's base (the host clock, or the `--clock` start). */
export function moveClock(clock: OffsetClock, body: Record<string, unknown>, baseNow = clock.now() - clock.offsetMs): ClockView {
  const has = (k: string) => body[k] !== undefined;
  const unknown = Object.keys(body).filter((k) => k !== "set" && k !== "advanceMs");
  if (unknown.length) throw invalidArgument(`unknown field ${unknown[0]}: give either set (ms or ISO 8601) or advanceMs`, unknown[0]);
  if (has("set") === has("advanceMs")) throw invalidArgument("give exactly one of set (milliseconds since the epoch or an ISO 8601 instant) and advanceMs", has("set") ? "advanceMs" : "set");
  if (has("set")) {
    clock.offsetMs = instantOf(body.set) - baseNow;
  } else {
    const n = body.advanceMs;
    if (typeof n !== "number" || !Number.isSafeInteger(n)) throw invalidArgument("advanceMs must be a whole number of milliseconds", "advanceMs");
    if (n < 0) throw invalidArgument("advanceMs must not be negative: the clock only moves forwards by advancing (use set to go back)", "advanceMs");
    clock.offsetMs += n;
  }
  return clockView(clock);
}

function instantOf(v: unknown): number {
  let ms: number;
  if (typeof v === "number") ms = v;
  else if (typeof v === "string" && /^\d+$/.test(v)) ms = Number(v);
  else if (typeof v === "string" && /^\d{4}-\d{2}-\d{2}T/.test(v)) ms = Date.parse(v);
  else ms = NaN;
  // Date's own range: ±8.64e15 ms around the epoch; the emulator only takes instants after it.
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > 8.64e15) {
    throw invalidArgument("set must be milliseconds since the epoch or an ISO 8601 instant such as 2030-01-01T00:00:00Z", "set");
  }
  return ms;
}
