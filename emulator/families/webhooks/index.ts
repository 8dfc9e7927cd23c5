/** What the webhooks family offers the other families. */
export { checkLegacyWebhookFeature } from "./legacy-feature.js";
