/** What the organizations family offers the other families. */
export { authEnabled, type AuthSwitch, initialAuthFeatures, otpSwitch, requireAuthEnabled } from "./auth-features.js";
