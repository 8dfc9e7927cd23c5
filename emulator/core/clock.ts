/**
 * The emulator's clock. Every component reads time through one Clock so that tests (and
 * later the control API) can shift it without touching the host clock.
 */
export type Clock = { now(): number };

/** An instance's clock: a base (the host's time, or a fixed start) plus the offset the control API moves it by. */
export type EmulatorClock = Clock & {
  offsetMs: number;
  /** The start it was given (`--clock`), when it does not follow the host clock. */
  readonly startMs?: number;
  /** Back to where it started (a reset): the offset cleared, a ticking start counted from now again. */
  restart(): void;
};

export function systemClock(offsetMs = 0): EmulatorClock {
  return {
    offsetMs,
    now() {
      return Date.now() + this.offsetMs;
    },
    restart() {
      this.offsetMs = 0;
    },
  };
}

/** How a clock started at a fixed time moves: `frozen` stays there until moved, `ticking` runs from it at the host clock's pace. */
export const CLOCK_MODES = ["frozen", "ticking"] as const;
export type ClockMode = (typeof CLOCK_MODES)[number];

/** A clock that starts at `startMs` (`--clock`), frozen or ticking from it. */
export function startedClock(startMs: number, mode: ClockMode): EmulatorClock {
  let hostAtStart = Date.now();
  return {
    offsetMs: 0,
    startMs,
    now() {
      return startMs + (mode === "ticking" ? Date.now() - hostAtStart : 0) + this.offsetMs;
    },
    restart() {
      this.offsetMs = 0;
      hostAtStart = Date.now();
    },
  };
}

/** A start time as `--clock` takes it: an ISO 8601 instant (2030-01-01T00:00:00Z) or milliseconds since the epoch; throws saying so otherwise. */
export function parseClockStart(value: string | number): number {
  const ms = typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : /^\d{4}-\d{2}-\d{2}(T|$)/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isSafeInteger(ms) || ms < 0 || ms > 8.64e15) throw new RangeError(`clock must be an ISO 8601 instant such as 2030-01-01T00:00:00Z or milliseconds since the epoch, got ${String(value)}`);
  return ms;
}

/** The wire form of a resource timestamp: `{seconds, nanos}` as decimal strings. */
export function toTimestamp(ms: number): { seconds: string; nanos: string } {
  const seconds = Math.floor(ms / 1000);
  return { seconds: String(seconds), nanos: String((ms - seconds * 1000) * 1_000_000) };
}

/**
 * The instant a request's `timestampMs` is checked against for liveness. The SDKs stamp
 * with the host's real clock, so once the emulated clock has been moved (control API) or
 * started elsewhere (`--clock`) a request counts as live against whichever of the two clocks
 * is nearer its timestamp: SDK calls keep working after an advance of days, and a client
 * that stamps with the emulated time works too. With no offset both clocks agree.
 */
export function stampReferenceTime(clock: Clock & { offsetMs: number; startMs?: number }, timestampMs: string, hostNow = Date.now(), now = clock.now()): number {
  const ts = Number(timestampMs);
  if ((clock.offsetMs === 0 && clock.startMs === undefined) || !Number.isFinite(ts)) return now;
  return Math.abs(ts - hostNow) < Math.abs(ts - now) ? hostNow : now;
}
