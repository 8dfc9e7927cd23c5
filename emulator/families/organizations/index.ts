/** What the organizations family offers the other families. */
export { authEnabled, initialAuthFeatures, otpSwitch, requireAuthEnabled } from "./auth-features.js";
export type { AuthSwitch } from "./auth-features.js";
