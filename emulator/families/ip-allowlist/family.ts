/**
 * The IP-allowlist family: set_ip_allowlist, remove_ip_allowlist and get_ip_allowlist, and
 * their enforcement at admission (once the caller is known: `admit`).
 */
import { defineFamily } from "../../family.js";
import { enforceIpAllowlist, type IpAllowlistSettings } from "../../auth/ip-allowlist.js";
import { ipAllowlistOperations } from "../../activities/handlers/ip-allowlist.js";
import { ipAllowlistQueryOperations } from "../../queries/ip-allowlist.js";
import { IpAllowlists } from "../../store/ip-allowlist.js";

declare module "../../runtime.js" {
  interface FamilyStates {
    ipAllowlist: IpAllowlistSettings;
  }
}

export type IpAllowlistOptions = {
  /** Take the client address from X-Forwarded-For (its leftmost entry) for IP allowlists: only behind a proxy you run (`--trust-proxy`). */
  trustProxy?: boolean;
};

export const ipAllowlistFamily = defineFamily<IpAllowlistOptions>({
  name: "ip-allowlist",
  operations: [...ipAllowlistOperations, ...ipAllowlistQueryOperations],
  repositories: (db) => ({ ipAllowlists: new IpAllowlists(db) }),
  start(rt, { options }) {
    rt.families.ipAllowlist = { trustProxy: options.trustProxy ?? false };
  },
  hooks: {
    admit: enforceIpAllowlist,
  },
});
