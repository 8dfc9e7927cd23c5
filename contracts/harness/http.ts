/**
 * HTTP to one target: stamps with the official API-key stamper, paces requests (a minimum
 * interval between request starts) and retries 429s with exponential backoff.
 */
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import type { ApiKeyPair } from "./keys.js";

export type Pacing = {
  /** Requests per second; 0 = unpaced. */
  requestsPerSecond: number;
  /** Retries of a 429 before giving up (default 5). */
  maxRetries?: number;
  /** First backoff delay; doubles each retry (default 500 ms); a Retry-After header wins. */
  baseDelayMs?: number;
  /** Per-request timeout (default 30 s). */
  timeoutMs?: number;
};

export type HttpResult = { status: number; body: unknown; retries: number; durationMs: number };

/** Where the client reads the time and waits: the system's, or a test's virtual one. */
export type Clock = { now(): number; sleep(ms: number): Promise<void> };

export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

export class HttpClient {
  private nextSlot = 0;
  requests = 0;
  retries = 0;

  constructor(
    private readonly pacing: Pacing,
    private readonly clock: Clock = systemClock,
  ) {}

  private async pace(): Promise<void> {
    if (!this.pacing.requestsPerSecond) return;
    const interval = 1000 / this.pacing.requestsPerSecond;
    const now = this.clock.now();
    const at = Math.max(now, this.nextSlot);
    this.nextSlot = at + interval;
    if (at > now) await this.clock.sleep(at - now);
  }

  /** POSTs `body` (the exact bytes that are stamped) to `url`. */
  async post(url: string, body: string, opts: { key?: ApiKeyPair | null; headers?: Record<string, string> } = {}): Promise<HttpResult> {
    const headers: Record<string, string> = { "content-type": "application/json", ...opts.headers };
    if (opts.key) {
      const stamp = await new ApiKeyStamper({ apiPublicKey: opts.key.publicKey, apiPrivateKey: opts.key.privateKey }).stamp(body);
      headers[stamp.stampHeaderName] = stamp.stampHeaderValue;
    }
    return this.send("POST", url, body, headers);
  }

  /** GETs `url` (the emulator's control API), unstamped. */
  async get(url: string): Promise<HttpResult> {
    return this.send("GET", url, undefined, {});
  }

  private async send(method: "GET" | "POST", url: string, body: string | undefined, headers: Record<string, string>): Promise<HttpResult> {
    const maxRetries = this.pacing.maxRetries ?? 5;
    const base = this.pacing.baseDelayMs ?? 500;
    const started = this.clock.now();
    for (let attempt = 0; ; attempt++) {
      await this.pace();
      this.requests++;
      const res = await fetch(url, { method, headers, body, signal: AbortSignal.timeout(this.pacing.timeoutMs ?? 30_000) });
      const text = await res.text();
      if (res.status === 429 && attempt < maxRetries) {
        this.retries++;
        const after = Number(res.headers.get("retry-after"));
        await this.clock.sleep(Number.isFinite(after) && after > 0 ? Math.min(after * 1000, 60_000) : Math.min(base * 2 ** attempt, 30_000));
        continue;
      }
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        /* keep the text */
      }
      return { status: res.status, body: parsed, retries: attempt, durationMs: this.clock.now() - started };
    }
  }
}
