/**
 * From an event to outbox rows: who receives it and what body they get. Runs as an event-bus
 * listener, synchronously inside the transaction that recorded the change, so routing and body
 * are what that transaction saw; the rows are written in that same transaction (a file-backed
 * state) or held until it has committed (an in-memory state: webhooks/index.ts), and sent later
 * (dispatcher.ts).
 *
 * Routing (behaviour-facts §9.3):
 * - ACTIVITY_UPDATES of organization O: active endpoints of O and of O's parent with an active
 *   ACTIVITY_UPDATES subscription, plus O's legacy FEATURE_NAME_WEBHOOK URL if set. The body
 *   is the activity as get_activity shows it, rendered now (its state at this status).
 * - balance and send-status events of O: active endpoints of the billing organization (O's
 *   parent, or O itself when top-level) subscribed to that type; body
 *   `{type, organizationId: O, parentOrganizationId: billing, msg}`.
 * X-Turnkey-Organization-Id is the receiving endpoint's organization. One Event-Id per event,
 * shared by every endpoint that receives it and kept across retries.
 */
import type { Runtime } from "../../core/runtime.js";
import type { EmulatorEvent } from "../../core/events.js";
import { renderActivity } from "../../core/views/activity.js";
import { jsonText } from "../../core/views/json-text.js";
import type { WebhookEndpointRow } from "./endpoints.js";
import { activeEndpoints, orgRouting } from "./routing.js";
import type { Db } from "../../core/store/db.js";
import { WebhookDeliveries, type DeliveryRef, type NewDelivery } from "./deliveries.js";
import { PAYLOAD_TYPE, type WebhookEventType } from "./event-types.js";
import { filterAccepts, filterFields, storedFilter } from "./filters.js";

type Target = { orgId: string; endpointId: string | null; url: string };

/** Whether the endpoint has an active subscription to the event's type whose filter (if any) accepts it. */
function subscribed(e: WebhookEndpointRow, type: WebhookEventType, fields: () => Record<string, string>): boolean {
  const s = e.subscriptions.find((x) => x.eventType === type && x.isActive);
  if (!s) return false;
  const filter = s.filtersJson === undefined ? null : storedFilter(type, s.filtersJson);
  return !filter || filterAccepts(filter, fields());
}

/** The outbox rows of one event: one per receiving endpoint (none when nobody listens). */
export function deliveriesFor(rt: Runtime, event: EmulatorEvent): NewDelivery[] {
  if (event.type === "CLOCK_MOVED") return [];
  const { store } = rt;
  const org = orgRouting(store, event.orgId);
  if (!org) return [];
  const targets: Target[] = [];
  let fieldValues: Record<string, string> | undefined;
  const fields = () => (fieldValues ??= filterFields(event, org.id));
  let body: () => string;
  if (event.type === "ACTIVITY_UPDATES") {
    const scope = org.parentId ? [org.id, org.parentId] : [org.id];
    for (const e of activeEndpoints(store, scope)) if (subscribed(e, event.type, fields)) targets.push({ orgId: e.orgId, endpointId: e.id, url: e.url });
    if (org.legacy) targets.push({ orgId: org.id, endpointId: null, url: org.legacy });
    body = () => jsonText(renderActivity(rt, event.activity)); // the response to the request reuses this text
  } else {
    const billing = org.parentId ?? org.id;
    for (const e of activeEndpoints(store, [billing])) if (subscribed(e, event.type, fields)) targets.push({ orgId: e.orgId, endpointId: e.id, url: e.url });
    body = () => JSON.stringify({ type: PAYLOAD_TYPE[event.type], organizationId: org.id, parentOrganizationId: billing, msg: event.msg });
  }
  if (!targets.length) return [];
  const text = body();
  const eventId = rt.random.uuid();
  const now = rt.clock.now();
  return targets.map(
    (t): NewDelivery => ({
      id: rt.random.uuid(),
      eventId,
      eventType: event.type,
      orgId: t.orgId,
      subjectOrgId: org.id,
      endpointId: t.endpointId,
      url: t.url,
      body: text,
      status: "PENDING",
      attempts: 0,
      nextAttemptAt: now,
      history: [],
      note: null,
      createdAt: now,
      updatedAt: now,
    }),
  );
}

/** Writes rows to the outbox; returns where they are (the dispatcher reads and sends them once their transaction has committed). */
export function writeDeliveries(db: Db, rows: readonly NewDelivery[]): DeliveryRef[] {
  const outbox = new WebhookDeliveries(db);
  return rows.map((row) => ({ seq: outbox.insert(row), id: row.id }));
}
