/**
 * What a family declares: one folder of the emulator (emulator/families/<name>/) holding one
 * part of the service (wallets, webhooks, the auth proxy, ...) with everything it needs: its
 * operations, its repositories and migrations, its state on the runtime, its lifecycle, the
 * hooks the core calls and its routes. The composition root lists the families once
 * (emulator/families.ts); `startEmulator` starts them in that order, reset loops over them,
 * stop runs them in reverse.
 *
 * The core never imports a family: a family adds its state to the runtime's type from its own
 * folder by declaration merging (as Hono's `ContextVariableMap` does),
 *
 *   declare module "../../runtime.js" {
 *     interface FamilyStates { webhooks: Webhooks }
 *   }
 *
 * and sets `rt.families.webhooks` in its `start`.
 */
import type { RequestHandler } from "express";
import type { Server } from "node:http";
import type { Runtime } from "./runtime.js";
import type { CatalogEntry } from "./vocabulary/define.js";
import type { RepositoryFactory } from "./store/index.js";
import type { Migration } from "./store/migrations.js";
import type { FamilyHooks } from "./hooks.js";
import type { Fixture } from "./fixture.js";

/**
 * Where a family's routes are mounted, in this order around the service's own (http/app.ts):
 * - `pages`: before anything else looks at the request (static pages: the web UI, the export frames);
 * - `log`: sees every request of the service, preflights included, before its CORS (the request log);
 * - `guard`: after the service's CORS, before both surfaces (injected faults, the rate limit);
 * - `surface`: a surface of the service beside the coordinator's (the auth proxy);
 * - `control`: after the coordinator: the control API and the emulator's own pages and keys.
 */
export const ROUTE_STAGES = ["pages", "log", "guard", "surface", "control"] as const;
export type RouteStage = (typeof ROUTE_STAGES)[number];

/** What the instance lends the control API: its description and its reset (index.ts). */
export type Instance = { info(): Record<string, unknown>; reset(): void };

/** What a family is given at start: the options of `startEmulator` and the fixture it seeds. */
export type FamilyStart<O> = { options: O; fixture: Fixture };

export type Family<O = object> = {
  name: string;
  /** Its registry entries (defineActivity, defineQuery, defineProxyEndpoint, defineNotEmulated): the registry composes every family's. */
  operations?: readonly CatalogEntry[];
  /** Its repositories over the store's database (store/index.ts `FamilyRepositories`, augmented by the family). */
  repositories?: RepositoryFactory;
  /**
   * Its schema changes since the baseline (store/schema.ts), in order: each applied once to every
   * database, after the core's and those of the families listed before it, and recorded as
   * `<name>/<id>` (store/migrations.ts). Append only: never edit, rename, reorder or remove one
   * once merged.
   */
  migrations?: readonly Migration[];
  /** Indexes that only serve its reads (`CREATE INDEX IF NOT EXISTS ...`), created at every open, never recorded (store/indexes.ts). */
  readIndexes?: readonly string[];
  /** The core's questions it answers (hooks.ts). */
  hooks?: FamilyHooks;
  /** Makes its state (`rt.families.<name>`) and starts its listeners and background work; families start in list order. */
  start?(rt: Runtime, setup: FamilyStart<O>): void;
  /** Once the server listens. */
  listening?(rt: Runtime, server: Server): void;
  /** Before a reset clears the store: what it must read of the state being left (coverage keeps its policies' names). */
  clearing?(rt: Runtime): void;
  /** What a reset clears besides the store, the keyring and the clock (the fixture is seeded again after). */
  reset?(rt: Runtime): void;
  /** Stops its background work; families stop in reverse order, before the store closes. */
  stop?(rt: Runtime): void | Promise<void>;
  /** Its routes, by stage. */
  routes?: { [S in RouteStage]?: (rt: Runtime, instance: Instance) => RequestHandler | RequestHandler[] };
  /** What it adds to the instance's description (`info`, GET /emulator/v1/info). */
  info?(rt: Runtime): Record<string, unknown>;
};

/** A family's declaration, typed (`O`: the options of startEmulator it reads). */
export function defineFamily<O = object>(family: Family<O>): Family<O> {
  return family;
}
