/**
 * The services one emulator instance hands to every handler: its store, its clock and its
 * settings. Several instances in one process each have their own runtime.
 */
import type { Store } from "./store/index.js";
import type { EmulatorClock } from "./clock.js";
import type { Random } from "./random.js";
import type { Keyring } from "./keyring.js";
import type { InstanceKeys } from "./auth/instance-keys.js";
import type { Networks } from "./networks/registry.js";
import type { EventBus } from "./events/index.js";
import type { Serving } from "./http/serving.js";
import type { Registry } from "./operations/define.js";
import type { Offload } from "./operations/contexts.js";
import type { ControlState } from "./control/state.js";
import type { SnapshotShelf } from "./control/snapshots.js";
import type { DevKey } from "./control/ui-votes.js";
import type { IpAllowlistSettings } from "./auth/ip-allowlist.js";
import type { Webhooks } from "./webhooks/index.js";
import type { ProxyClock } from "./proxy/forward.js";
import type { ChainWatcher } from "./networks/watch.js";
import type { ActivityTurns } from "./activities/turns.js";
import type { CoverageRecorder } from "./coverage/recorder.js";

export type Runtime = {
  /** Every emulated operation (operations/registry.ts, composed once): read here, never imported below the root. */
  registry: Registry;
  store: Store;
  keyring: Keyring;
  clock: EmulatorClock;
  /** Where every random value of the instance comes from (random.ts): seeded by `--seed`, else the system's generator. */
  random: Random;
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
  /** Sends a handler's CPU work (a signature) to a worker while the server is busy (operations/contexts.ts); composed in index.ts from `serving`. */
  offload: Offload;
  /** Control API state (control/state.ts): faults and rate-limit windows are cleared on reset (resetControl); the request log stays. */
  control: ControlState;
  /** Snapshots taken from the control API (control/snapshots.ts); kept across reset. */
  snapshots: SnapshotShelf;
  /** The fixture's published API key pairs: the control API votes as their users (control/ui-votes.ts). */
  devKeys: DevKey[];
  /** IP allowlist settings (auth/ip-allowlist.ts). */
  ipAllowlist: IpAllowlistSettings;
  /** Webhook settings and delivery (webhooks/index.ts), once started; stopped with the instance. */
  webhooks?: Webhooks;
  /** The last timestamp the auth proxy stamped a forward with (proxy/forward.ts). */
  proxyClock: ProxyClock;
  /** The work in flight on each activity (activities/turns.ts): identical submissions and votes on one activity wait their turn. */
  activityTurns: ActivityTurns;
  /** Turns landed transactions into balance events (networks/watch.ts), made on first use; closes with the networks. */
  chainWatcher?: ChainWatcher;
  /** What the run called and how it ended, and each policy's outcomes (coverage/recorder.ts); kept across reset. */
  coverage: CoverageRecorder;
};
