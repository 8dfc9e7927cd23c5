/**
 * The legacy FEATURE_NAME_WEBHOOK organization feature: its value is a URL that receives the
 * organization's own ACTIVITY_UPDATES (outbox.ts), signed like any delivery. The URL is checked
 * with the same rules as an endpoint's, naming `parameters.value`.
 */
import type { Runtime } from "../../core/runtime.js";
import { checkWebhookUrl } from "./url.js";
import { webhookSettingsOf } from "./settings.js";

export const LEGACY_WEBHOOK_FEATURE = "FEATURE_NAME_WEBHOOK";

export function checkLegacyWebhookFeature(rt: Runtime, name: string, value: string): void {
  if (name === LEGACY_WEBHOOK_FEATURE) checkWebhookUrl(value, "parameters.value", webhookSettingsOf(rt).allowHosts);
}
