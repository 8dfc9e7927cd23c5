/**
 * The IP-allowlist family: set_ip_allowlist, remove_ip_allowlist and get_ip_allowlist, and
 * their enforcement at admission (once the caller is known: `admit`).
 */
import { defineFamily } from "../../core/family.js";
import { enforceIpAllowlist, type IpAllowlistOptions, type IpAllowlistSettings } from "./enforce.js";
import { ipAllowlistOperations } from "./activities.js";
import { ipAllowlistQueryOperations } from "./queries.js";
import { IpAllowlists } from "./repository.js";

declare module "../../core/runtime.js" {
  interface FamilyStates {
    ipAllowlist: IpAllowlistSettings;
  }
}

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
