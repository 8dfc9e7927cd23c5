/** What the chains family offers the other families. */
export { parseCaip2 } from "./caip2.js";
export { networksOf } from "./networks.js";
export { USD_MICROS_PER_COIN } from "./prices.js";
