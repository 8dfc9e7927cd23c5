import type { Runtime } from "../runtime.js";
import type { Caller } from "../auth/caller.js";
import type { OrganizationRow } from "../store/organizations.js";

export type QueryContext = { rt: Runtime; now: number; org: OrganizationRow; caller: Caller };
