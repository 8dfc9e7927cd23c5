/**
 * Webhooks of one emulator instance: endpoints (operations.ts), the outbox written from the
 * event bus (outbox.ts), its delivery (dispatcher.ts), the signing key and JWKS
 * (signing-key.ts) and the routes (routes.ts). docs/webhooks.md describes the behaviour.
 */
import type { Runtime } from "../../core/runtime.js";
import { Dispatcher } from "./dispatcher.js";
import { afterCommit } from "../../core/store/after-commit.js";
import { deliveriesFor, writeDeliveries } from "./outbox.js";
import { checkWebhookOptions, type WebhookOptions, type WebhookSettings } from "./settings.js";
import { SigningKeys } from "./signing-key.js";

/** An instance's webhooks (`rt.families.webhooks`, set by the family's start, stopped with the instance). */
export type Webhooks = {
  settings: WebhookSettings;
  dispatcher: Dispatcher;
  /** The signing key of each state the instance delivers from, opened once (never held in module state). */
  signingKeys: SigningKeys;
  stop(): Promise<void>;
};

/** Starts webhooks for an instance: listens to its events and resumes any PENDING deliveries of its store. */
export function startWebhooks(rt: Runtime, options: WebhookOptions = {}): Webhooks {
  const settings = checkWebhookOptions(options);
  const signingKeys = new SigningKeys();
  const dispatcher = new Dispatcher(rt, settings, signingKeys);
  // Made now, so every snapshot and exported state carries the key that signs for it.
  signingKeys.of(rt.store, rt.random.derive("webhook signing key")); // its own stream: a reset starts rt.random over without it
  const off = rt.events.on((event) => {
    if (event.type === "CLOCK_MOVED") dispatcher.rescan();
    else {
      const rows = deliveriesFor(rt, event);
      if (!rows.length) return;
      const { db } = rt.store;
      // An in-memory state keeps its rows out of the request's transaction, written at the next
      // quiet moment once it has committed (a crash loses that state whole anyway); a file keeps
      // them in the transaction, so that what committed is delivered after a restart.
      if (db.memory && afterCommit(db, () => dispatcher.hold(db, rows))) return;
      dispatcher.offer(writeDeliveries(db, rows));
    }
  });
  dispatcher.rescan();
  return {
    settings,
    dispatcher,
    signingKeys,
    async stop() {
      off();
      await dispatcher.stop();
      signingKeys.clear();
    },
  };
}

export { webhookOperations } from "./operations.js";
export type { WebhookOptions } from "./settings.js";

/** What startEmulator takes for webhooks. */
export type WebhooksOptions = {
  /** Webhook delivery settings (retry delays, timeout, hosts accepted like localhost): settings.ts. */
  webhooks?: WebhookOptions;
};
