/** What the webhooks family offers the other families and the root (its start options and their flags). */
export { checkLegacyWebhookFeature } from "./legacy-feature.js";
export { webhookOptionsFromFlags } from "./cli-flags.js";
export type { WebhooksOptions } from "./state.js";
