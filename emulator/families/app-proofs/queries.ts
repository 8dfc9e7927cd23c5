/**
 * list_app_proofs: the app proofs recorded for one of the organization's activities
 * (proofs.ts). The boot proofs that would tie their key to an enclave are not emulated.
 */
import { notFound } from "../../core/errors.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import { defineNotEmulated, defineQuery } from "../../core/vocabulary/define.js";
import { appProofsOf } from "./proofs.js";

const NEEDS_ENCLAVE = "it needs a real enclave: boot proofs are AWS Nitro attestations that only Turnkey's hardware can produce";

export const appProofQueryOperations = [
  defineQuery("list_app_proofs", {
    run(ctx, b) {
      requireUuid(b.activityId, "activityId", "activity");
      if (!ctx.rt.store.activities.get(ctx.org.id, b.activityId)) throw notFound(`activity not found: ${b.activityId}`);
      return { appProofs: appProofsOf(ctx.rt, b.activityId) };
    },
  }),
  defineNotEmulated("get_boot_proof", NEEDS_ENCLAVE),
  defineNotEmulated("get_latest_boot_proof", NEEDS_ENCLAVE),
];
