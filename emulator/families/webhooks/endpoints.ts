/** Webhook endpoints of an organization (table webhook_endpoints; subscriptions held as JSON). */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper, updateRow } from "../../core/store/rows.js";
import type { WebhookEventType } from "./event-types.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    webhookEndpoints: WebhookEndpoints;
  }
}

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

const ANY_SUBSCRIBED = `SELECT 1 FROM webhook_endpoints AS e, json_each(e.subscriptions) AS s
  WHERE e.is_active = 1 AND json_extract(s.value, '$.isActive') = 1
    AND json_extract(s.value, '$.eventType') IN (SELECT value FROM json_each(?)) LIMIT 1`;

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
    // Asked on every chain-watcher pass: answered inside SQLite, no row read out or parsed.
    return prep(this.db, ANY_SUBSCRIBED).get(JSON.stringify(types)) !== undefined;
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
