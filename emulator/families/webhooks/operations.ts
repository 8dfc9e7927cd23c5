/**
 * create_webhook_endpoint, update_webhook_endpoint, delete_webhook_endpoint (policy-decided
 * activities: root users may by default; `activity.params.endpoint_id` is exposed for update
 * and delete) and list_webhook_endpoints. Subscriptions are given at creation only; the
 * balance and send-status event types belong to the billing (top-level) organization: a
 * sub-organization asking for one is refused with PermissionDenied and nothing is written.
 * `filtersJson` is kept and echoed as given, and applied to deliveries (filters.ts: the
 * emulator's reading, as the service documents no grammar for it).
 */
import { invalidArgument, notFound, permissionDenied } from "../../core/errors.js";
import { checkName, requireUuid } from "../../core/vocabulary/lookups.js";
import { defineActivity, defineQuery } from "../../core/vocabulary/define.js";
import type { Runtime } from "../../core/runtime.js";
import { BILLING_SCOPED, isWebhookEventType, WEBHOOK_EVENT_TYPES } from "./event-types.js";
import { renderEndpoint, type Subscription, type WebhookEndpointRow } from "./endpoints.js";
import { checkWebhookUrl } from "./url.js";
import { parseEventFilter } from "./filters.js";
import { webhookSettingsOf } from "./settings.js";
import { quote } from "../../core/input-error.js";

const endpointsOf = (rt: Runtime) => rt.store.webhookEndpoints;

type SubscriptionParams = { eventType: string; filtersJson?: string; isActive?: boolean };

function subscriptionsOf(list: SubscriptionParams[] | undefined, isSubOrganization: boolean): Subscription[] {
  const seen = new Set<string>();
  return (list ?? []).map((s, i) => {
    const field = `parameters.subscriptions[${i}]`;
    if (!isWebhookEventType(s.eventType)) throw invalidArgument(`unknown webhook event type ${quote(s.eventType)}: expected one of ${WEBHOOK_EVENT_TYPES.join(", ")}`, `${field}.eventType`);
    if (seen.has(s.eventType)) throw invalidArgument(`duplicate subscription to ${s.eventType}`, `${field}.eventType`);
    seen.add(s.eventType);
    if (isSubOrganization && BILLING_SCOPED.has(s.eventType)) {
      throw permissionDenied(`${s.eventType} events are scoped to the billing organization: a sub-organization cannot subscribe to them (subscribe from the parent organization, whose endpoints receive them for its sub-organizations)`);
    }
    if (s.filtersJson !== undefined) parseEventFilter(s.eventType, s.filtersJson, `${field}.filtersJson`);
    return { eventType: s.eventType, ...(s.filtersJson !== undefined ? { filtersJson: s.filtersJson } : {}), isActive: s.isActive ?? true };
  });
}

function requireEndpoint(rt: Runtime, orgId: string, endpointId: string): WebhookEndpointRow {
  requireUuid(endpointId, "parameters.endpointId", "webhook endpoint");
  const e = endpointsOf(rt).get(orgId, endpointId);
  if (!e) throw notFound(`webhook endpoint not found: ${endpointId}`);
  return e;
}

export const webhookOperations = [
  defineActivity("create_webhook_endpoint", {
    policy: { resource: "WEBHOOK_ENDPOINT", action: "CREATE", source: "documented" },
    run(ctx, p) {
      const url = checkWebhookUrl(p.url, "parameters.url", webhookSettingsOf(ctx.rt).allowHosts);
      checkName(p.name ?? "", "parameters.name");
      const row: WebhookEndpointRow = {
        id: ctx.rt.random.uuid(),
        orgId: ctx.org.id,
        url,
        name: p.name,
        isActive: true,
        subscriptions: subscriptionsOf(p.subscriptions, !!ctx.org.parentId),
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      endpointsOf(ctx.rt).insert(row);
      return { endpointId: row.id, webhookEndpoint: renderEndpoint(row) };
    },
  }),

  defineActivity("update_webhook_endpoint", {
    policy: { resource: "WEBHOOK_ENDPOINT", action: "UPDATE", source: "documented", params: [["endpoint_id", "endpointId"]] },
    run(ctx, p) {
      const e = requireEndpoint(ctx.rt, ctx.org.id, p.endpointId);
      const patch: Partial<Pick<WebhookEndpointRow, "url" | "name" | "isActive">> = {};
      if (p.url !== undefined) patch.url = checkWebhookUrl(p.url, "parameters.url", webhookSettingsOf(ctx.rt).allowHosts);
      if (p.name !== undefined) {
        checkName(p.name, "parameters.name");
        patch.name = p.name;
      }
      if (p.isActive !== undefined) patch.isActive = p.isActive;
      const repo = endpointsOf(ctx.rt);
      repo.update(e.id, patch, ctx.now);
      return { endpointId: e.id, webhookEndpoint: renderEndpoint(repo.byId(e.id)!) };
    },
  }),

  defineActivity("delete_webhook_endpoint", {
    policy: { resource: "WEBHOOK_ENDPOINT", action: "DELETE", source: "documented", params: [["endpoint_id", "endpointId"]] },
    run(ctx, p) {
      const e = requireEndpoint(ctx.rt, ctx.org.id, p.endpointId);
      endpointsOf(ctx.rt).delete(e.id);
      return { endpointId: e.id };
    },
  }),

  defineQuery("list_webhook_endpoints", {
    run(ctx) {
      return { webhookEndpoints: endpointsOf(ctx.rt).list(ctx.org.id).map(renderEndpoint) };
    },
  }),
];
