/** Kept for the queries' imports; the context types live in operations/contexts.ts. */
export type { QueryContext } from "../operations/contexts.js";
