/**
 * The emulator's clock. Every component reads time through one Clock so that tests (and
 * later the control API) can shift it without touching the host clock.
 */
export type Clock = { now(): number };

export function systemClock(offsetMs = 0): Clock & { offsetMs: number } {
  return {
    offsetMs,
    now() {
      return Date.now() + this.offsetMs;
    },
  };
}

/** The wire form of a resource timestamp: `{seconds, nanos}` as decimal strings. */
export function toTimestamp(ms: number): { seconds: string; nanos: string } {
  const seconds = Math.floor(ms / 1000);
  return { seconds: String(seconds), nanos: String((ms - seconds * 1000) * 1_000_000) };
}
