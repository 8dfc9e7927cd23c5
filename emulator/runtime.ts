/**
 * The services one emulator instance hands to every handler: its store, its clock and its
 * settings. Several instances in one process each have their own runtime.
 */
import type { Store } from "./store/index.js";
import type { Clock } from "./clock.js";
import type { Keyring } from "./keyring.js";
import type { InstanceKeys } from "./auth/instance-keys.js";
import type { Networks } from "./networks/registry.js";
import type { EventBus } from "./events/index.js";
import type { Serving } from "./http/serving.js";
import type { Registry } from "./operations/define.js";

export type Runtime = {
  /** Every emulated operation (operations/registry.ts, composed once): read here, never imported below the root. */
  registry: Registry;
  store: Store;
  keyring: Keyring;
  clock: Clock & { offsetMs: number };
  /** Checks every response against its contract and fails loudly on a mismatch. */
  validateResponses: boolean;
  /** Public URLs, known once the servers listen. */
  urls: { baseUrl: string; authProxyUrl: string };
  /** Stand-ins for the enclave keys and the built-in OIDC issuer key (deterministic per fixture). */
  keys: InstanceKeys;
  /** Local chains (created on first use) and external chain clients, by caip2. */
  networks?: Networks;
  /** Activity status changes, balance and send-status events (emulator/events): the webhook outbox listens. */
  events: EventBus;
  /** The HTTP server's load (requests open, the last one's end), once it listens: background work waits for a quiet moment. */
  serving?: Serving;
};
