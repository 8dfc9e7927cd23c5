/** Kept for the handlers' imports; the context types live in operations/contexts.ts. */
export type { ActivityContext } from "../operations/contexts.js";
