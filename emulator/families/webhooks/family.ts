/**
 * The webhooks family: endpoints (create/update/delete/list_webhook_endpoints), the outbox its
 * listener writes from the instance's events, delivery with retries, the signing key and its
 * JWKS, and the deliveries' control route. docs/webhooks.md describes the behaviour.
 */
import { defineFamily } from "../../core/family.js";
import { startWebhooks, webhookOperations, type Webhooks, type WebhooksOptions } from "./state.js";
import { WebhookEndpoints } from "./endpoints.js";
import { WebhookDeliveries } from "./deliveries.js";
import { isWebhookEventType } from "./event-types.js";
import { webhookRouter } from "./routes.js";

declare module "../../core/runtime.js" {
  interface FamilyStates {
    /** Settings, the dispatcher and the signing keys (webhooks/index.ts); stopped with the instance. */
    webhooks: Webhooks;
  }
}

export const webhooksFamily = defineFamily<WebhooksOptions>({
  name: "webhooks",
  operations: webhookOperations,
  repositories: (db) => ({ webhookEndpoints: new WebhookEndpoints(db), webhookDeliveries: new WebhookDeliveries(db) }),
  // Started after the families whose listeners a payload reflects (app proofs) and after a state file is loaded: it resumes the deliveries a --db file or state left pending.
  start(rt, { options }) {
    rt.families.webhooks = startWebhooks(rt, options.webhooks);
  },
  stop: (rt) => rt.families.webhooks.stop(),
  hooks: {
    eventsWanted: (rt, types) => rt.store.webhookEndpoints.anySubscribedTo(types.filter(isWebhookEventType)),
  },
  routes: {
    control: (rt) => webhookRouter(rt), // the webhook JWKS (public) and /emulator/v1/webhooks/deliveries
  },
});
