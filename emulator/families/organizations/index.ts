/** What the organizations family offers the other families and the root (a fixture's organizations). */
export { authEnabled, initialAuthFeatures, otpSwitch, requireAuthEnabled } from "./auth-features.js";
export type { AuthSwitch } from "./auth-features.js";
