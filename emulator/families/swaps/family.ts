/** The swaps family: quotes and swaps on the local pools, the organization's swap configuration (fees) and fee claims. */
import { defineFamily } from "../../core/family.js";
import { swapOperations } from "../../activities/handlers/swaps.js";
import { swapConfigOperations } from "../../activities/handlers/swap-config.js";
import { swapQueryOperations } from "../../queries/swaps.js";
import { SwapQuotes, Swaps } from "../../store/swaps.js";
import { SwapConfigs } from "../../store/swap-configs.js";

export const swapsFamily = defineFamily({
  name: "swaps",
  operations: [...swapOperations, ...swapConfigOperations, ...swapQueryOperations],
  repositories: (db) => ({ swapQuotes: new SwapQuotes(db), swaps: new Swaps(db), swapConfigs: new SwapConfigs(db) }),
});
