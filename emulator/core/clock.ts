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

/**
 * The instant a request's `timestampMs` is checked against for liveness. The SDKs stamp
 * with the host's real clock, so once the emulated clock has been moved (control API) a
 * request counts as live against whichever of the two clocks is nearer its timestamp:
 * SDK calls keep working after an advance of days, and a client that stamps with the
 * emulated time works too. With no offset both clocks agree.
 */
export function stampReferenceTime(clock: Clock & { offsetMs: number }, timestampMs: string, hostNow = Date.now()): number {
  const now = clock.now();
  const ts = Number(timestampMs);
  if (clock.offsetMs === 0 || !Number.isFinite(ts)) return now;
  return Math.abs(ts - hostNow) < Math.abs(ts - now) ? hostNow : now;
}
