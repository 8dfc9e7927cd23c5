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

/** What an activity handler sees: the runtime, the target organization and the caller. */
export type ActivityContext = {
  rt: Runtime;
  now: number;
  org: OrganizationRow;
  caller: Caller;
  activityId: string;
};

/** What a query handler sees. */
export type QueryContext = { rt: Runtime; now: number; org: OrganizationRow; caller: Caller };

/** What one auth-proxy request works with: its runtime, configuration and organization. */
export type ProxyContext = { rt: Runtime; config: AuthProxyConfigRow; org: OrganizationRow; settings: AuthProxySettings; captchaToken?: string };
