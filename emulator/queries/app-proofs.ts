/** list_app_proofs: the app proofs recorded for one of the organization's activities (proofs/app-proofs.ts). */
import { notFound } from "../errors.js";
import { requireUuid } from "../domain/lookups.js";
import { defineQuery } from "../operations/define.js";
import { appProofsOf } from "../proofs/app-proofs.js";

export const appProofQueryOperations = [
  defineQuery("list_app_proofs", {
    run(ctx, b) {
      requireUuid(b.activityId, "activityId", "activity");
      if (!ctx.rt.store.activities.get(ctx.org.id, b.activityId)) throw notFound(`activity not found: ${b.activityId}`);
      return { appProofs: appProofsOf(ctx.rt, b.activityId) };
    },
  }),
];
