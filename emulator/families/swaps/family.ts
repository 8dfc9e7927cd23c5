/** The swaps family: quotes and swaps on the local pools, the organization's swap configuration (fees) and fee claims. */
import { defineFamily } from "../../core/family.js";
import { swapOperations } from "./activities.js";
import { swapConfigOperations } from "./config-activities.js";
import { swapQueryOperations } from "./queries.js";
import { SwapQuotes, Swaps } from "./repository.js";
import { SwapConfigs } from "./config-repository.js";

export const swapsFamily = defineFamily({
  name: "swaps",
  operations: [...swapOperations, ...swapConfigOperations, ...swapQueryOperations],
  repositories: (db) => ({ swapQuotes: new SwapQuotes(db), swaps: new Swaps(db), swapConfigs: new SwapConfigs(db) }),
});
