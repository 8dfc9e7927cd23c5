/** What the app-proofs family offers the other families. */
export { addressDerivations } from "./proofs.js";
