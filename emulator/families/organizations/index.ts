/** What the organizations family offers the other families. */
export { otpSwitch, requireAuthEnabled } from "./auth-features.js";
