/**
 * The webhook outbox (table webhook_deliveries): one row per event and receiving endpoint,
 * written in the transaction that caused the event, then sent and retried by the dispatcher.
 * A row keeps its signed-over body, its Event-Id and every attempt made.
 */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { rowMapper, updateWhere } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    webhookDeliveries: WebhookDeliveries;
  }
}

/** PENDING: waiting for its next attempt; then DELIVERED (2xx), FAILED (terminal answer or out of attempts) or CANCELED (endpoint gone or paused). */
export type DeliveryStatus = "PENDING" | "DELIVERED" | "FAILED" | "CANCELED";

export type DeliveryAttempt = {
  attempt: number;
  /** Emulated time the attempt started (ms). */
  at: number;
  /** The X-Turnkey-Timestamp it was signed with. */
  timestampMs: string;
  /** The receiver's HTTP status, when it answered. */
  statusCode?: number;
  /** Why no answer came (connection refused, timeout, ...). */
  error?: string;
  durationMs: number;
  outcome: "delivered" | "retry" | "failed";
};

export type DeliveryRow = {
  seq: number;
  id: string;
  eventId: string;
  eventType: string;
  /** The routing organization (X-Turnkey-Organization-Id): the endpoint's. */
  orgId: string;
  /** The organization the event happened in. */
  subjectOrgId: string;
  /** null for the legacy FEATURE_NAME_WEBHOOK URL of an organization. */
  endpointId: string | null;
  url: string;
  body: string;
  status: DeliveryStatus;
  attempts: number;
  /** Emulated time (ms) of the next attempt; null once settled. */
  nextAttemptAt: number | null;
  history: DeliveryAttempt[];
  /** Why the row settled as it did (or why it waits), in words. */
  note: string | null;
  createdAt: number;
  updatedAt: number;
};

/** A row not yet written (seq is given by the insert). */
export type NewDelivery = Omit<DeliveryRow, "seq">;

const rows = rowMapper<DeliveryRow>({ json: ["history"] });

const INSERT = `INSERT INTO webhook_deliveries (id, event_id, event_type, org_id, subject_org_id, endpoint_id, url, body, status, attempts, next_attempt_at, history, note, created_at, updated_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;

/** A row by its place and its id (a place alone could be a later row's, after the outbox was emptied). */
export type DeliveryRef = Pick<DeliveryRow, "seq" | "id">;

export type DeliveryFilter = { status?: string; eventId?: string; endpointId?: string; orgId?: string; limit?: number };

export class WebhookDeliveries {
  constructor(private readonly db: Db) {}

  /** Returns the row's seq. One prepared statement (this runs inside every subscribed activity's transaction). */
  insert(d: NewDelivery): number {
    const info = prep(this.db, INSERT).run(d.id, d.eventId, d.eventType, d.orgId, d.subjectOrgId, d.endpointId, d.url, d.body, d.status, d.attempts, d.nextAttemptAt, JSON.stringify(d.history), d.note, d.createdAt, d.updatedAt);
    return Number(info.lastInsertRowid);
  }

  /** The row, if it is (still) there and PENDING: a row written by a transaction that rolled back is not. */
  pending(ref: DeliveryRef): DeliveryRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM webhook_deliveries WHERE seq = ? AND id = ? AND status = 'PENDING'").get(ref.seq, ref.id));
  }

  /** PENDING rows due at `now`, oldest first. */
  due(now: number, limit: number): DeliveryRow[] {
    return rows.readAll(
      prep(this.db, "SELECT * FROM webhook_deliveries WHERE status = 'PENDING' AND next_attempt_at <= ? ORDER BY next_attempt_at, seq LIMIT ?").all(now, limit),
    );
  }

  /** When the earliest PENDING row not yet due at `now` falls due (emulated ms), if any. */
  nextDueAfter(now: number): number | undefined {
    const r = prep(this.db, "SELECT MIN(next_attempt_at) AS t FROM webhook_deliveries WHERE status = 'PENDING' AND next_attempt_at > ?").get(now) as { t: number | null };
    return r.t ?? undefined;
  }

  update(ref: DeliveryRef, patch: Partial<Pick<DeliveryRow, "status" | "attempts" | "nextAttemptAt" | "history" | "note">>, now: number): void {
    // nextAttemptAt null must be written as NULL (the row mapper leaves out undefined only).
    updateWhere(this.db, "webhook_deliveries", rows, { seq: ref.seq, id: ref.id }, { ...patch, updatedAt: now });
  }

  /** Oldest first, filtered; `limit` keeps the newest. */
  list(f: DeliveryFilter = {}): DeliveryRow[] {
    const where: string[] = [];
    const args: unknown[] = [];
    for (const [column, value] of [["status", f.status], ["event_id", f.eventId], ["endpoint_id", f.endpointId], ["org_id", f.orgId]] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      args.push(value);
    }
    const sql = `SELECT * FROM (SELECT * FROM webhook_deliveries ${where.length ? `WHERE ${where.join(" AND ")}` : ""} ORDER BY seq DESC LIMIT ?) ORDER BY seq`;
    return rows.readAll(this.db.prepare(sql).all(...args, f.limit ?? 1000));
  }
}
