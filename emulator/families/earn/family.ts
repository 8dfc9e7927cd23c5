/** The Earn family: wrappers over the local yield vaults, deposits, withdrawals, rewards and fee claims, and the Earn queries. */
import { defineFamily } from "../../core/family.js";
import { earnOperations } from "./activities.js";
import { earnQueryOperations } from "./queries.js";
import { EarnRequests, EarnWrappers } from "./repository.js";
import { addSponsoredSource } from "../chains/index.js";

export const earnFamily = defineFamily({
  name: "earn",
  operations: [...earnOperations, ...earnQueryOperations],
  repositories: (db) => ({ earnWrappers: new EarnWrappers(db), earnRequests: new EarnRequests(db) }),
  start(rt) {
    // Sponsored deposits, withdrawals and reward claims count against the organization's gas limits.
    addSponsoredSource(rt, (rt, orgIds, since) =>
      rt.store.earnRequests.sponsoredSince(orgIds, since).map((row) => ({ ...row, settle: (fee: string) => rt.store.earnRequests.setFee(row.id, fee) })),
    );
  },
});
