/**
 * What each kind of operation's handler is handed: the vocabulary of operations/define.ts,
 * types only, so the entries, the engine, the queries and the auth proxy can all name them
 * without importing one another's implementation.
 */
import type { Runtime } from "../runtime.js";
import type { Caller } from "../auth/caller.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { AuthProxyConfigRow } from "../store/auth-proxy-configs.js";
import type { AuthProxySettings } from "../domain/auth-proxy-settings.js";
import type { ResolvedSigner } from "../domain/signer.js";

/**
 * Runs CPU work that may leave the event loop (a signature): on a worker (`onWorker`) while
 * the instance's server has other requests open, else at once (`here`). The composition root
 * (index.ts) supplies it from the server's load; handlers reach it as `ctx.offload`.
 */
export type Offload = <T>(here: () => T, onWorker: () => Promise<T>) => T | Promise<T>;

/** What an activity handler sees: the runtime, the target organization and the caller, and what the engine resolved for the decision. */
export type ActivityContext = {
  rt: Runtime;
  now: number;
  org: OrganizationRow;
  caller: Caller;
  activityId: string;
  /**
   * The key a `signWith` names in `org`, as the decision resolved it (activities/frame.ts:
   * looked up once per activity); throws an InputError at `signWith` when nothing answers to it.
   */
  signer(signWith: string): ResolvedSigner;
  /** Hands CPU work to a worker when the server is busy (Offload). */
  offload: Offload;
};

/** What a query handler sees. */
export type QueryContext = { rt: Runtime; now: number; org: OrganizationRow; caller: Caller };

/** What one auth-proxy request works with: its runtime, configuration and organization. */
export type ProxyContext = { rt: Runtime; config: AuthProxyConfigRow; org: OrganizationRow; settings: AuthProxySettings; captchaToken?: string };
