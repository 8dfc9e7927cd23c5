/**
 * The services one emulator instance hands to every handler: its store, its clock, its keys,
 * its catalog of operations and its settings, and each family's own state (`families`).
 * Several instances in one process each have their own runtime.
 *
 * Nothing here names a family: a family declares its member of `families` from its own folder
 * (`FamilyStates`, by declaration merging). Two members are declared where their types live,
 * because those types name the runtime in turn (a handler's context holds it): `registry`, the
 * catalog of operations (vocabulary/define.ts), and `hooks`, the families' answers to the
 * core's questions (hooks.ts).
 */
import type { Store } from "./store/index.js";
import type { EmulatorClock } from "./clock.js";
import type { Random } from "./random.js";
import type { Keyring } from "./keyring.js";
import type { InstanceKeys } from "./auth/instance-keys.js";
import type { EventBus } from "./events.js";
import type { Serving } from "./http/serving.js";
import type { ActivityTurns } from "./engine/turns.js";

/**
 * Runs CPU work that may leave the event loop (a signature): on a worker (`onWorker`) while
 * the instance's server has other requests open, else at once (`here`). The composition root
 * (index.ts) supplies it from the server's load; handlers reach it as `ctx.offload`.
 */
export type Offload = <T>(here: () => T, onWorker: () => Promise<T>) => T | Promise<T>;

/** Each family's state on the runtime, `rt.families.<name>`: empty here, declared by the families (family.ts). */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface FamilyStates {}

export interface Runtime {
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
  /** Activity status changes, balance and send-status events (events.ts): the families' listeners react. */
  events: EventBus;
  /** The HTTP server's load (requests open, the last one's end), once it listens: background work waits for a quiet moment. */
  serving?: Serving;
  /** Sends a handler's CPU work (a signature) to a worker while the server is busy; composed in index.ts from `serving`. */
  offload: Offload;
  /** The work in flight on each activity (engine/turns.ts): identical submissions and votes on one activity wait their turn. */
  activityTurns: ActivityTurns;
  /** Each family's state (`rt.families.webhooks`, ...), set by the family's `start`. */
  families: FamilyStates;
}
