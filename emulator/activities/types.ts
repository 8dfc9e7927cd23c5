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
