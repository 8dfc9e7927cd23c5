/** upsert_swap_config (the rules and the fee every swap pays: config.ts). */
import { defineActivity } from "../../core/vocabulary/define.js";
import { upsertSwapConfig } from "./config.js";

export const swapConfigOperations = [
  defineActivity("upsert_swap_config", {
    run: (ctx, p) => upsertSwapConfig(ctx, p),
  }),
];
