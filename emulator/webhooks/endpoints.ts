/** Webhook endpoints of an organization (table webhook_endpoints; subscriptions held as JSON). */
import type { Db } from "../store/db.js";
import { prep } from "../store/statements.js";
import { insertRow, rowMapper, updateRow } from "../store/rows.js";
import type { WebhookEventType } from "./event-types.js";

export type Subscription = { eventType: WebhookEventType; filtersJson?: string; isActive: boolean };

export type WebhookEndpointRow = {
  id: string;
  orgId: string;
  url: string;
  name: string;
  isActive: boolean;
  subscriptions: Subscription[];
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<WebhookEndpointRow>({ json: ["subscriptions"], bool: ["isActive"] });

export class WebhookEndpoints {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): WebhookEndpointRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM webhook_endpoints WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  byId(id: string): WebhookEndpointRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM webhook_endpoints WHERE id = ?").get(id));
  }

  list(orgId: string): WebhookEndpointRow[] {
    return rows.readAll(prep(this.db, "SELECT * FROM webhook_endpoints WHERE org_id = ? ORDER BY created_at, rowid").all(orgId));
  }

  /** Whether any active endpoint, in any organization, has an active subscription to one of these types. */
  anySubscribedTo(types: readonly WebhookEventType[]): boolean {
    return rows.readAll(prep(this.db, "SELECT * FROM webhook_endpoints WHERE is_active = 1").all()).some((e) => e.subscriptions.some((s) => s.isActive && types.includes(s.eventType)));
  }

  /** Active endpoints of these organizations (the event's own and its parent). */
  activeIn(orgIds: string[]): WebhookEndpointRow[] {
    if (orgIds.length === 1) return rows.readAll(prep(this.db, "SELECT * FROM webhook_endpoints WHERE org_id = ? AND is_active = 1 ORDER BY created_at, rowid").all(orgIds[0]));
    return rows.readAll(prep(this.db, "SELECT * FROM webhook_endpoints WHERE org_id IN (?, ?) AND is_active = 1 ORDER BY created_at, rowid").all(orgIds[0], orgIds[1]));
  }

  insert(e: WebhookEndpointRow): void {
    insertRow(this.db, "webhook_endpoints", rows, e);
  }

  update(id: string, patch: Partial<Pick<WebhookEndpointRow, "url" | "name" | "isActive">>, now: number): void {
    updateRow(this.db, "webhook_endpoints", rows, id, { ...patch, updatedAt: now });
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM webhook_endpoints WHERE id = ?").run(id);
  }
}

/** The wire form (v1WebhookEndpointData). */
export function renderEndpoint(e: WebhookEndpointRow): Record<string, unknown> {
  return {
    endpointId: e.id,
    organizationId: e.orgId,
    url: e.url,
    name: e.name,
    isActive: e.isActive,
    subscriptions: e.subscriptions.map((s) => ({ eventType: s.eventType, ...(s.filtersJson !== undefined ? { filtersJson: s.filtersJson } : {}), isActive: s.isActive })),
  };
}
