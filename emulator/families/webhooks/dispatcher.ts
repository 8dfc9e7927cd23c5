/**
 * Sends the outbox: real HTTP(S) POSTs, after the transaction that wrote the rows has
 * committed and never on the path of the request that caused them.
 *
 * Three ways in: `offer` hands over the rows an event just wrote in a file-backed state (sent
 * once the transaction is over, after checking that they were committed); `hold` takes the rows
 * of an event of an in-memory state once its transaction has committed, written at the quiet
 * moment they are sent (or before, when the state is read whole: core/store/held-writes.ts); and
 * `rescan` looks in the store for PENDING rows that are due (at start: what a --db file left;
 * when the emulated clock moves; when a retry falls due; once a second in case the state was
 * replaced by a restore or import).
 * Outcomes are written back in batches, one transaction each.
 *
 * Sending waits for a quiet moment: once the server has answered every service request and
 * taken none for QUIET_MS (core/http/serving.ts). Signing, the POST and the receiver's own work then
 * never take CPU from requests being served, neither from the one that caused the event nor
 * from the next; what a burst of requests queued goes out together, in one message to the
 * delivery worker. Under continuous load nothing waits longer than MAX_HOLD_MS.
 *
 * Each attempt is signed afresh (X-Turnkey-Timestamp = emulated now, same X-Turnkey-Event-Id).
 * Outcomes (behaviour-facts §9.4): 2xx delivered; 3xx (redirects are not followed), 4xx and
 * 429 failed for good; a network error, a timeout or a 5xx is retried after the next delay of
 * `retryDelaysMs` (emulated time), until the attempts run out. Rows stay PENDING in SQLite
 * until settled, so an instance restarted on the same --db file resumes them (an attempt cut
 * short by a stop is made again: delivery is at least once, receivers dedupe by Event-Id).
 *
 * The dispatcher always reads `rt.store` afresh: a snapshot restore or state import replaces
 * the store, and whatever PENDING rows the new state holds are sent from then on.
 */
import type { Runtime } from "../../core/runtime.js";
import type { Store } from "../../core/store/index.js";
import { inTransaction, type Db } from "../../core/store/db.js";
import { holdWrites } from "../../core/store/held-writes.js";
import { WebhookDeliveries, type DeliveryAttempt, type DeliveryRef, type DeliveryRow, type NewDelivery } from "./deliveries.js";
import { writeDeliveries } from "./outbox.js";
import type { SigningKeys } from "./signing-key.js";
import type { WebhookSettings } from "./settings.js";
import { DeliveryWorker } from "./delivery-worker.js";

/** How often the outbox is looked at without being told to (a restored state, a clock moved in code). */
const SAFETY_TICK_MS = 1_000;
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long (wall-clock ms) the server must have served nothing before deliveries go out. */
const QUIET_MS = 5;
/** The longest (wall-clock ms) deliveries wait for a quiet moment: under continuous load, they go out then. */
const MAX_HOLD_MS = 1_000;
/** Rows handed to the worker at once at most (it keeps `concurrency` of them in flight). */
const MAX_HANDED = 1024;
/** Attempts at writing an event's held rows before they are given up. */
const WRITE_TRIES = 3;
export const USER_AGENT = "turnkey-emulator-webhooks/1";

type Patch = Parameters<WebhookDeliveries["update"]>[1];

export class Dispatcher {
  /**
   * Rows offered by events of a file-backed state (or just written from `unwritten`), by
   * reference: their transaction may still be open now; the rows, bodies included, are read when sent.
   */
  private fresh: DeliveryRef[] = [];
  /**
   * Rows of committed events of an in-memory state, not written yet, with the database they
   * belong to (kept for at most the hold's limit: their bodies are texts the answers reused).
   */
  private unwritten: { db: Db; rows: readonly NewDelivery[]; tries?: number }[] = [];
  private readonly writeHeld = (db: Db) => this.write(db);
  private scan = false;
  private scheduled = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private timerAt = Infinity;
  private readonly tick: NodeJS.Timeout;
  private readonly inFlight = new Set<string>();
  private results: { store: Store; ref: DeliveryRef; patch: Patch; at: number }[] = [];
  /** Rows whose outcome is recorded but not yet written: not to be picked up again meanwhile. */
  private readonly settling = new Set<string>();
  private flushScheduled = false;
  /** Signs and POSTs off the request-serving thread. */
  private readonly worker: DeliveryWorker;
  private idleWaiters: (() => void)[] = [];
  /** performance.now() since when sending has waited for a quiet moment, and the timer that looks again. */
  private heldSince: number | null = null;
  private holdTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly rt: Runtime,
    private readonly settings: WebhookSettings,
    /** The instance's signing key for each state it delivers from. */
    private readonly signingKeys: SigningKeys,
  ) {
    this.worker = new DeliveryWorker(settings.concurrency);
    this.tick = setInterval(() => this.rescan(), SAFETY_TICK_MS);
    this.tick.unref();
  }

  /** Rows just written by an event (inside its transaction): sent once it has committed. */
  offer(rows: DeliveryRef[]): void {
    if (!rows.length || this.stopped) return;
    this.fresh.push(...rows);
    if (!this.holdTimer) this.schedule();
  }

  /**
   * Rows of an event whose transaction has committed, not written yet: they are written when
   * they are sent (at the next quiet moment), or before `db` is read whole, whichever is first.
   */
  hold(db: Db, rows: readonly NewDelivery[]): void {
    if (!rows.length || this.stopped) return;
    this.unwritten.push({ db, rows });
    holdWrites(db, this.writeHeld);
    if (!this.holdTimer) this.schedule();
  }

  /** Writes the held rows of `db` (one transaction) and queues them to be sent; those of a database no longer in use are dropped. */
  private write(db: Db): void {
    if (!this.unwritten.length) return;
    const current = this.rt.store.db;
    const mine = this.unwritten.filter((u) => u.db === db);
    // Rows of a state since replaced (reset, restore, import) go with it.
    this.unwritten = this.unwritten.filter((u) => u.db !== db && u.db === current && u.db.open);
    if (!mine.length || !db.open) return;
    try {
      const refs = inTransaction(db, () => mine.flatMap((u) => writeDeliveries(db, u.rows)));
      if (db === current) this.fresh.push(...refs);
    } catch (e) {
      // Never let a delivery take the emulator down: the rows wait for the next quiet moment, and
      // after a few failed tries they are lost, as if the event had come during a crash.
      for (const u of mine) u.tries = (u.tries ?? 0) + 1;
      const again = db === current ? mine.filter((u) => u.tries! < WRITE_TRIES) : [];
      this.unwritten.unshift(...again);
      const lost = mine.length - again.length;
      console.error(`webhook deliveries could not be written${lost ? ` (${lost} event(s) dropped)` : ", will retry"}: ${(e as Error).message}`);
    }
  }

  /** Looks for due PENDING rows in the store soon. */
  rescan(): void {
    this.scan = true;
    this.schedule();
  }

  /** Resolves once nothing is waiting, in flight, unrecorded or due (tests, benchmarks). */
  idle(): Promise<void> {
    if (this.isIdle()) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Stops sending: attempts in flight are abandoned (their rows stay PENDING), recorded outcomes are written first. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.write(this.rt.store.db); // an export on exit carries them, PENDING
    this.flush();
    this.stopped = true;
    clearInterval(this.tick);
    if (this.timer) clearTimeout(this.timer);
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.inFlight.clear();
    this.fresh = [];
    this.unwritten = [];
    await this.worker.stop();
    this.releaseIdle();
  }

  private schedule(): void {
    if (this.stopped || this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.pump();
    });
  }

  private pump(): void {
    if (this.stopped) return;
    const store = this.rt.store;
    if (!store.db.open) {
      this.fresh = [];
      this.unwritten = [];
      return;
    }
    const outbox = store.webhookDeliveries;
    const now = this.rt.clock.now();
    if (!this.fresh.length && !this.unwritten.length && this.scan && !outbox.due(now, 1).length) {
      // Nothing due: no need to wait for a quiet moment to find that out.
      this.scan = false;
      const next = outbox.nextDueAfter(now);
      if (next !== undefined) this.armTimer(next, now);
      return this.releaseIdle();
    }
    if ((this.fresh.length || this.unwritten.length || this.scan) && this.held()) return;
    this.write(store.db);
    const room = () => this.inFlight.size < MAX_HANDED;
    while (this.fresh.length && room()) {
      const ref = this.fresh.shift()!;
      if (this.busy(ref.id)) continue;
      // Not there: its transaction rolled back, or a reset or restore came in between.
      const d = outbox.pending(ref);
      if (d) this.start(store, d);
    }
    if (this.scan && room()) {
      this.scan = false;
      const offered = new Set(this.fresh.map((d) => d.id));
      for (const d of outbox.due(now, MAX_HANDED + this.inFlight.size + offered.size)) {
        if (this.busy(d.id) || offered.has(d.id)) continue;
        if (!room()) {
          this.scan = true; // more are due: look again when an attempt ends
          break;
        }
        this.start(store, d);
      }
      const next = outbox.nextDueAfter(now);
      if (next !== undefined) this.armTimer(next, now);
    }
    this.releaseIdle();
  }

  /** Whether sending waits for the server to be quiet; if so, a timer looks again. */
  private held(): boolean {
    const serving = this.rt.serving;
    if (!serving) return false;
    const at = performance.now();
    this.heldSince ??= at;
    const wait = Math.min(serving.untilQuiet(QUIET_MS, at), this.heldSince + MAX_HOLD_MS - at);
    if (wait <= 0) {
      this.heldSince = null;
      return false;
    }
    this.holdTimer ??= setTimeout(() => {
      this.holdTimer = null;
      this.schedule();
    }, wait);
    return true;
  }

  private busy(id: string): boolean {
    return this.inFlight.has(id) || this.settling.has(id);
  }

  private armTimer(at: number, now: number): void {
    if (this.timer && at >= this.timerAt) return;
    if (this.timer) clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.timerAt = Infinity;
      this.rescan();
    }, Math.min(Math.max(0, at - now), MAX_TIMER_MS));
    this.timer.unref();
  }

  private start(store: Store, d: DeliveryRow): void {
    this.inFlight.add(d.id);
    void this.attempt(store, d).finally(() => {
      this.inFlight.delete(d.id);
      if (this.scan || (this.fresh.length && !this.holdTimer)) this.schedule();
      this.releaseIdle();
    });
  }

  private record(store: Store, d: DeliveryRef, patch: Patch, at: number): void {
    this.results.push({ store, ref: { seq: d.seq, id: d.id }, patch, at });
    this.settling.add(d.id);
    if (this.flushScheduled) return;
    this.flushScheduled = true;
    setImmediate(() => this.flush());
  }

  /** Writes the recorded outcomes, one transaction per store. */
  private flush(): void {
    this.flushScheduled = false;
    const results = this.results;
    this.results = [];
    for (const r of results) this.settling.delete(r.ref.id);
    const store = this.rt.store;
    const mine = results.filter((r) => r.store === store);
    if (!mine.length || !store.db.open) return this.releaseIdle();
    try {
      const outbox = store.webhookDeliveries;
      store.tx(() => {
        for (const r of mine) outbox.update(r.ref, r.patch, r.at);
      });
    } catch (e) {
      // Never let a delivery take the emulator down; the rows stay PENDING and are tried again.
      console.error(`webhook deliveries could not be recorded: ${(e as Error).message}`);
    }
    for (const r of mine) if (r.patch.nextAttemptAt) this.armTimer(r.patch.nextAttemptAt, this.rt.clock.now());
    this.releaseIdle();
  }

  private async attempt(store: Store, d: DeliveryRow): Promise<void> {
    const startedAt = this.rt.clock.now();
    if (d.endpointId) {
      const endpoint = store.webhookEndpoints.byId(d.endpointId);
      if (!endpoint || !endpoint.isActive) {
        const note = endpoint ? "the endpoint was paused (isActive false) before this delivery" : "the endpoint was deleted before this delivery";
        this.record(store, d, { status: "CANCELED", nextAttemptAt: null, note }, startedAt);
        return;
      }
    }
    const key = this.signingKeys.of(store);
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
      // x-turnkey-signature: added by the worker, over v1.ed25519.<kid>.<timestamp>.<event id>.<body> (signing-key.ts)
    };
    const answer = await this.worker.send({ url: d.url, headers, body: d.body, key: key.privateKey, timeoutMs: this.settings.timeoutMs });
    // Stopped, or the state was replaced (restore, import) meanwhile: nothing to record.
    if (this.stopped || this.rt.store !== store) return;
    const attempt = d.attempts + 1;
    const base = { attempt, at: startedAt, timestampMs, durationMs: answer.durationMs };
    const now = this.rt.clock.now();
    if ("statusCode" in answer && answer.statusCode >= 200 && answer.statusCode < 300) {
      const a: DeliveryAttempt = { ...base, statusCode: answer.statusCode, outcome: "delivered" };
      this.record(store, d, { status: "DELIVERED", attempts: attempt, nextAttemptAt: null, history: [...d.history, a], note: null }, now);
      return;
    }
    const delay = this.settings.retryDelaysMs[attempt - 1];
    if ("error" in answer || answer.statusCode >= 500) {
      const what = "error" in answer ? answer.error : `the receiver answered ${answer.statusCode}`;
      const result = "error" in answer ? { error: answer.error } : { statusCode: answer.statusCode };
      if (delay !== undefined) {
        const a: DeliveryAttempt = { ...base, ...result, outcome: "retry" };
        const note = `${what}; retry ${attempt} of ${this.settings.retryDelaysMs.length} after ${delay} ms`;
        this.record(store, d, { attempts: attempt, nextAttemptAt: now + delay, history: [...d.history, a], note }, now);
      } else {
        const a: DeliveryAttempt = { ...base, ...result, outcome: "failed" };
        this.record(store, d, { status: "FAILED", attempts: attempt, nextAttemptAt: null, history: [...d.history, a], note: `${what}; gave up after ${attempt} attempts` }, now);
      }
      return;
    }
    const why = answer.statusCode < 400 ? "redirects are not followed" : "a 3xx/4xx/429 answer is not retried";
    const a: DeliveryAttempt = { ...base, statusCode: answer.statusCode, outcome: "failed" };
    this.record(store, d, { status: "FAILED", attempts: attempt, nextAttemptAt: null, history: [...d.history, a], note: `the receiver answered ${answer.statusCode} (${why})` }, now);
  }

  private isIdle(): boolean {
    if (this.stopped) return true;
    if (this.inFlight.size || this.fresh.length || this.unwritten.length || this.results.length || this.scheduled || this.flushScheduled || this.holdTimer) return false;
    try {
      return this.rt.store.webhookDeliveries.due(this.rt.clock.now(), 1).length === 0;
    } catch {
      return true; // the store is closed
    }
  }

  private releaseIdle(): void {
    if (!this.idleWaiters.length || !this.isIdle()) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const w of waiters) w();
  }
}
