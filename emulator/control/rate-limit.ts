/**
 * The service's per-organization rate limit (behaviour facts §8.3: 10 requests per second
 * per sub-organization, `ratelimit-*` headers, 429 with a fixed message), enforced only
 * when the emulator starts with `--rate-limit`. Counted in fixed one-second windows of the
 * host's real time: a rate is about real throughput, so moving the emulated clock does
 * not reset it.
 */
export const RATE_LIMIT_PER_SECOND = 10;

export type RateDecision = { allowed: boolean; limit: number; remaining: number };

export class RateLimiter {
  private readonly windows = new Map<string, { start: number; used: number }>();

  constructor(
    private readonly limit = RATE_LIMIT_PER_SECOND,
    private readonly windowMs = 1000,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** Counts one request of `key` (an organization id) and says whether it is within the limit. */
  hit(key: string): RateDecision {
    const t = this.now();
    let w = this.windows.get(key);
    if (!w || t - w.start >= this.windowMs) {
      if (this.windows.size > 10_000) this.windows.clear();
      this.windows.set(key, (w = { start: t, used: 0 }));
    }
    if (w.used >= this.limit) return { allowed: false, limit: this.limit, remaining: 0 };
    w.used++;
    return { allowed: true, limit: this.limit, remaining: this.limit - w.used };
  }

  clear(): void {
    this.windows.clear();
  }
}
