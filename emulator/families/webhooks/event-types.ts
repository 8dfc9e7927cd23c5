/**
 * The webhook event types an endpoint may subscribe to, and who may: ACTIVITY_UPDATES is
 * organization-scoped (any organization; a parent's endpoint also hears its sub-organizations'
 * activity); the balance and send-status events are scoped to the billing (top-level)
 * organization, whose endpoints alone receive them, for its sub-organizations too.
 */
export const WEBHOOK_EVENT_TYPES = ["ACTIVITY_UPDATES", "BALANCE_CONFIRMED_UPDATES", "BALANCE_FINALIZED_UPDATES", "SEND_TRANSACTION_STATUS_UPDATES"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export const isWebhookEventType = (s: unknown): s is WebhookEventType => typeof s === "string" && (WEBHOOK_EVENT_TYPES as readonly string[]).includes(s);

/** Event types only a billing (top-level) organization may subscribe to. */
export const BILLING_SCOPED: ReadonlySet<WebhookEventType> = new Set(["BALANCE_CONFIRMED_UPDATES", "BALANCE_FINALIZED_UPDATES", "SEND_TRANSACTION_STATUS_UPDATES"]);

/** The `type` member of a billing-scoped payload. */
export const PAYLOAD_TYPE: Record<Exclude<WebhookEventType, "ACTIVITY_UPDATES">, string> = {
  BALANCE_CONFIRMED_UPDATES: "balances:confirmed",
  BALANCE_FINALIZED_UPDATES: "balances:finalized",
  SEND_TRANSACTION_STATUS_UPDATES: "transaction:status",
};
