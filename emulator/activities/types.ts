import type { Runtime } from "../runtime.js";
import type { Caller } from "../auth/caller.js";
import type { OrganizationRow } from "../store/organizations.js";

/** What an activity handler sees: the runtime, the target organization and the caller. */
export type ActivityContext = {
  rt: Runtime;
  now: number;
  org: OrganizationRow;
  caller: Caller;
  activityId: string;
};

/**
 * Runs one activity's effect inside the activity's SQLite transaction and returns its
 * result member. Throwing a TurnkeyError rolls everything back and answers with that error.
 * A handler that writes nothing may return a promise (e.g. a signature made by async code):
 * it settles outside the transaction, and the activity is recorded once it has.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type ActivityHandler = (ctx: ActivityContext, params: any) => Record<string, unknown> | Promise<Record<string, unknown>>;

export type HandlerTable = Record<string, ActivityHandler>;
