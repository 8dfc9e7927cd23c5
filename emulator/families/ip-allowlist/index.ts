/** What the IP-allowlist family offers the root: its start option (`--trust-proxy`). */
export type { IpAllowlistOptions } from "./enforce.js";
