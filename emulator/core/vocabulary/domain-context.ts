/**
 * What domain code works with: the instance, the request's time and the organization it acts
 * in. An activity's context is one; the domain never sees the caller or the activity.
 */
import type { ActivityContext } from "./contexts.js";

export type DomainContext = Pick<ActivityContext, "rt" | "now" | "org">;
