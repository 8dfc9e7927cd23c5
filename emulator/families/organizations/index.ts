/** What the organizations family offers the other families. */
export { initialAuthFeatures, otpSwitch, requireAuthEnabled } from "./auth-features.js";
