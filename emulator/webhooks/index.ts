/**
 * Webhooks of one emulator instance: endpoints (operations.ts), the outbox written from the
 * event bus (outbox.ts), its delivery (dispatcher.ts), the signing key and JWKS
 * (signing-key.ts) and the routes (routes.ts). docs/webhooks.md describes the behaviour.
 */
import type { Runtime } from "../runtime.js";
import { Dispatcher } from "./dispatcher.js";
import { enqueueEvent } from "./outbox.js";
import { configureWebhooks, type WebhookOptions } from "./settings.js";
import { signingKeyOf } from "./signing-key.js";

export type Webhooks = {
  dispatcher: Dispatcher;
  stop(): Promise<void>;
};

const instances = new WeakMap<Runtime, Webhooks>();

/** Starts webhooks for an instance: listens to its events and resumes any PENDING deliveries of its store. */
export function startWebhooks(rt: Runtime, options: WebhookOptions = {}): Webhooks {
  const settings = configureWebhooks(rt, options);
  const dispatcher = new Dispatcher(rt, settings);
  // Made now, so every snapshot and exported state carries the key that signs for it.
  signingKeyOf(rt.store);
  const off = rt.events.on((event) => {
    if (event.type === "CLOCK_MOVED") dispatcher.rescan();
    else dispatcher.offer(enqueueEvent(rt, event));
  });
  dispatcher.rescan();
  const webhooks: Webhooks = {
    dispatcher,
    async stop() {
      off();
      await dispatcher.stop();
    },
  };
  instances.set(rt, webhooks);
  return webhooks;
}

export function webhooksOf(rt: Runtime): Webhooks | undefined {
  return instances.get(rt);
}

export { webhookOperations } from "./operations.js";
export { webhookRouter } from "./routes.js";
export type { WebhookOptions } from "./settings.js";
