/**
 * Every family of the emulator, listed once, in start order, and what is composed from their
 * declarations: the registry of operations, the store's repositories and schema, and the hooks
 * the core calls. `startEmulator` (index.ts) starts the families in this order, reset loops
 * over them, stop runs them in reverse.
 *
 * The order matters where one family's work must come before another's:
 * - listeners run in the order they were added: the app proofs of a completed activity are
 *   recorded before the webhooks render its payload (app-proofs before webhooks);
 * - control loads a state file (`--state`) at start, replacing the store: the families that
 *   read the store at start (webhooks: its signing key and pending deliveries) come after it;
 * - stop runs in reverse: webhooks stop before control writes the state (`--export-on-exit`),
 *   and the chains close after both;
 * - a family's migrations run after those of the families before it (core/store/migrations.ts).
 */
import type { Family } from "./core/family.js";
import { composeHooks } from "./core/hooks.js";
import { composeRegistry } from "./core/registry.js";
import { Store, type StoreOptions } from "./core/store/index.js";
import { composeSchema } from "./core/store/migrations.js";
import { activitiesFamily } from "./families/activities/family.js";
import { organizationsFamily } from "./families/organizations/family.js";
import { subOrganizationsFamily } from "./families/sub-organizations/family.js";
import { usersFamily } from "./families/users/family.js";
import { walletsFamily } from "./families/wallets/family.js";
import { policiesFamily } from "./families/policies/family.js";
import { sessionsFamily } from "./families/sessions/family.js";
import { oauthFamily } from "./families/oauth/family.js";
import { mailboxFamily } from "./families/mailbox/family.js";
import { ipAllowlistFamily } from "./families/ip-allowlist/family.js";
import { secretsFamily } from "./families/secrets/family.js";
import { tvcFamily } from "./families/tvc/family.js";
import { appProofsFamily } from "./families/app-proofs/family.js";
import { velocityFamily } from "./families/velocity/family.js";
import { chainsFamily } from "./families/chains/family.js";
import { earnFamily } from "./families/earn/family.js";
import { swapsFamily } from "./families/swaps/family.js";
import { onRampFamily } from "./families/onramp/family.js";
import { authProxyFamily } from "./families/auth-proxy/family.js";
import { coverageFamily } from "./families/coverage/family.js";
import { controlFamily } from "./families/control/family.js";
import { webhooksFamily } from "./families/webhooks/family.js";

export const FAMILIES = [
  activitiesFamily,
  organizationsFamily,
  subOrganizationsFamily,
  usersFamily,
  walletsFamily,
  policiesFamily,
  sessionsFamily,
  oauthFamily,
  mailboxFamily,
  ipAllowlistFamily,
  secretsFamily,
  tvcFamily,
  appProofsFamily,
  velocityFamily,
  chainsFamily,
  earnFamily,
  swapsFamily,
  onRampFamily,
  authProxyFamily,
  coverageFamily,
  controlFamily,
  webhooksFamily,
] as const;

/** The families as the instance runs them (each reads its own part of startEmulator's options). */
export const families: readonly Family<never>[] = FAMILIES as readonly Family<never>[];

/** Every family's operations, composed once: the catalog every instance carries (`rt.registry`). */
export const registry = composeRegistry(FAMILIES.flatMap((f) => f.operations ?? []));

/** The families' answers to the core's questions (`rt.hooks`). */
export const hooks = composeHooks(FAMILIES);

/** Every family's repositories (the store makes them over each database it uses). */
export const repositories = FAMILIES.flatMap((f) => (f.repositories ? [f.repositories] : []));

/** Every family's migrations and read indexes (each database the store opens is migrated to them). */
export const schema = composeSchema(FAMILIES);

/** A store with every family's repositories and schema (an instance's; tests that need a bare store too). */
export function openStore(file?: string, opts: Omit<StoreOptions, "repositories" | "schema"> = {}): Store {
  return Store.open(file, { ...opts, repositories, schema });
}
