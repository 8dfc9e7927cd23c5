/**
 * Sends the outbox: real HTTP(S) POSTs, after the transaction that wrote the rows has
 * committed and never on the path of the request that caused them (a kick schedules a pump on
 * the next turn of the event loop).
 *
 * Each attempt is signed afresh (X-Turnkey-Timestamp = emulated now, same X-Turnkey-Event-Id).
 * Outcomes (behaviour-facts §9.4): 2xx delivered; 3xx (redirects are not followed), 4xx and
 * 429 failed for good; a network error, a timeout or a 5xx is retried after the next delay of
 * `retryDelaysMs` (emulated time), until the attempts run out. Rows stay PENDING in SQLite
 * until settled, so an instance restarted on the same --db file resumes them (an attempt cut
 * short by a stop is made again: delivery is at least once, as receivers dedupe by Event-Id).
 *
 * The dispatcher always reads `rt.store` afresh: a snapshot restore or state import replaces
 * the store, and whatever PENDING rows the new state holds are sent from then on.
 */
import http from "node:http";
import https from "node:https";
import type { Runtime } from "../runtime.js";
import type { Store } from "../store/index.js";
import { WebhookDeliveries, type DeliveryAttempt, type DeliveryRow } from "./deliveries.js";
import { WebhookEndpoints } from "./endpoints.js";
import { signDelivery, signingKeyOf } from "./signing-key.js";
import type { WebhookSettings } from "./settings.js";

/** How often the outbox is looked at even without a kick (a restored state, a clock moved in code). */
const SAFETY_TICK_MS = 1_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
export const USER_AGENT = "turnkey-emulator-webhooks/1";

type Answer = { statusCode: number } | { error: string };

export class Dispatcher {
  private scheduled = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private readonly tick: NodeJS.Timeout;
  private readonly inFlight = new Map<string, AbortController>();
  private readonly agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  private idleWaiters: (() => void)[] = [];

  constructor(
    private readonly rt: Runtime,
    private readonly settings: WebhookSettings,
  ) {
    this.tick = setInterval(() => this.kick(), SAFETY_TICK_MS);
    this.tick.unref();
  }

  /** Looks at the outbox soon (after the current synchronous work, i.e. after any commit in progress). */
  kick(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  /** Resolves once nothing is in flight or due (tests, benchmarks). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.tick);
    if (this.timer) clearTimeout(this.timer);
    for (const c of this.inFlight.values()) c.abort();
    this.inFlight.clear();
    this.agents.http.destroy();
    this.agents.https.destroy();
    this.releaseIdle();
  }

  private isIdle(): boolean {
    if (this.inFlight.size || this.stopped) return this.stopped;
    try {
      return new WebhookDeliveries(this.rt.store.db).due(this.rt.clock.now(), 1).length === 0;
    } catch {
      return true; // the store is closed
    }
  }

  private releaseIdle(): void {
    if (!this.idleWaiters.length || !(this.stopped || this.isIdle())) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }

  private pump(): void {
    if (this.stopped) return;
    const store = this.rt.store;
    if (!store.db.open) return;
    const outbox = new WebhookDeliveries(store.db);
    const now = this.rt.clock.now();
    const free = this.settings.concurrency - this.inFlight.size;
    if (free > 0) {
      for (const d of outbox.due(now, free + this.inFlight.size)) {
        if (this.inFlight.size >= this.settings.concurrency) break;
        if (!this.inFlight.has(d.id)) void this.attempt(store, d);
      }
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = outbox.nextDueAt();
    if (next !== undefined && next > now) {
      this.timer = setTimeout(() => this.kick(), Math.min(next - now, MAX_TIMER_MS));
      this.timer.unref();
    }
    this.releaseIdle();
  }

  private async attempt(store: Store, d: DeliveryRow): Promise<void> {
    const controller = new AbortController();
    this.inFlight.set(d.id, controller);
    try {
      const outbox = new WebhookDeliveries(store.db);
      const startedAt = this.rt.clock.now();
      if (d.endpointId) {
        const endpoint = new WebhookEndpoints(store.db).byId(d.endpointId);
        if (!endpoint || !endpoint.isActive) {
          outbox.update(d.id, { status: "CANCELED", nextAttemptAt: null, note: endpoint ? "the endpoint was paused (isActive false) before this delivery" : "the endpoint was deleted before this delivery" }, startedAt);
          return;
        }
      }
      const key = signingKeyOf(store);
      const timestampMs = String(startedAt);
      const headers: Record<string, string> = {
        "content-type": "application/json",
        "user-agent": USER_AGENT,
        "x-turnkey-organization-id": d.orgId,
        "x-turnkey-event-type": d.eventType,
        "x-turnkey-timestamp": timestampMs,
        "x-turnkey-webhook-version": "1",
        "x-turnkey-event-id": d.eventId,
        "x-turnkey-signature-key-id": key.kid,
        "x-turnkey-signature-algorithm": "ed25519",
        "x-turnkey-signature-version": "v1",
        "x-turnkey-signature": signDelivery(key, timestampMs, d.eventId, d.body),
      };
      const wallStart = performance.now();
      const answer = await this.post(d.url, headers, d.body, controller.signal);
      // Stopped, or the state was replaced (restore, import) or cleared (reset) meanwhile: nothing to record.
      if (this.stopped || controller.signal.aborted || this.rt.store !== store || !store.db.open || !outbox.get(d.id)) return;
      const attempt = d.attempts + 1;
      const base = { attempt, at: startedAt, timestampMs, durationMs: Math.round(performance.now() - wallStart) };
      const now = this.rt.clock.now();
      if ("statusCode" in answer && answer.statusCode >= 200 && answer.statusCode < 300) {
        const a: DeliveryAttempt = { ...base, statusCode: answer.statusCode, outcome: "delivered" };
        outbox.update(d.id, { status: "DELIVERED", attempts: attempt, nextAttemptAt: null, history: [...d.history, a], note: null }, now);
        return;
      }
      const retryable = "error" in answer || answer.statusCode >= 500;
      const what = "error" in answer ? answer.error : `the receiver answered ${answer.statusCode}`;
      const delay = this.settings.retryDelaysMs[attempt - 1];
      const result = "statusCode" in answer ? { statusCode: answer.statusCode } : { error: answer.error };
      if (retryable && delay !== undefined) {
        const a: DeliveryAttempt = { ...base, ...result, outcome: "retry" };
        outbox.update(d.id, { attempts: attempt, nextAttemptAt: now + delay, history: [...d.history, a], note: `${what}; retry ${attempt} of ${this.settings.retryDelaysMs.length} after ${delay} ms` }, now);
        return;
      }
      const a: DeliveryAttempt = { ...base, ...result, outcome: "failed" };
      const note = retryable ? `${what}; gave up after ${attempt} attempts` : `${what} (${answer.statusCode! < 400 ? "redirects are not followed" : "a 3xx/4xx/429 answer is not retried"})`;
      outbox.update(d.id, { status: "FAILED", attempts: attempt, nextAttemptAt: null, history: [...d.history, a], note }, now);
    } catch (e) {
      // Never let a delivery take the emulator down; the row stays as it was and is tried again.
      if (!this.stopped) console.error(`webhook delivery ${d.id} could not be recorded: ${(e as Error).message}`);
    } finally {
      this.inFlight.delete(d.id);
      if (!this.stopped) this.kick();
      this.releaseIdle();
    }
  }

  private post(url: string, headers: Record<string, string>, body: string, signal: AbortSignal): Promise<Answer> {
    return new Promise((resolve) => {
      let target: URL;
      try {
        target = new URL(url);
      } catch {
        resolve({ error: "invalid URL" });
        return;
      }
      const secure = target.protocol === "https:";
      const payload = Buffer.from(body, "utf8");
      const req = (secure ? https : http).request(target, {
        method: "POST",
        headers: { ...headers, "content-length": String(payload.length) },
        agent: secure ? this.agents.https : this.agents.http,
        signal,
        timeout: this.settings.timeoutMs,
      });
      req.on("response", (res) => {
        res.resume(); // the answer's body is not read
        resolve({ statusCode: res.statusCode ?? 0 });
      });
      req.on("timeout", () => req.destroy(new Error(`no answer within ${this.settings.timeoutMs} ms`)));
      req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code && e.code !== "ERR_STREAM_DESTROYED" ? `${e.code}: ${e.message}` : e.message }));
      req.end(payload);
    });
  }
}
