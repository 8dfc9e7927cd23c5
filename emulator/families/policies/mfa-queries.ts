/** Reads of MFA policies (per user) and of the MFA status of an activity. */
import { notFound } from "../../core/errors.js";
import { requireUser, requireUuid } from "../../core/vocabulary/lookups.js";
import { renderMfaPolicy, renderMfaStatus } from "../../core/views/mfa-policies.js";
import { defineQuery } from "../../core/vocabulary/define.js";

export const mfaPolicyQueryOperations = [
  defineQuery("get_mfa_policies", {
    run(ctx, b) {
      const user = requireUser(ctx.rt.store, ctx.org.id, b.userId, "userId");
      return { mfaPolicies: ctx.rt.store.mfaPolicies.forUser(user.id).map(renderMfaPolicy) };
    },
  }),

  defineQuery("get_mfa_policy", {
    run(ctx, b) {
      const user = requireUser(ctx.rt.store, ctx.org.id, b.userId, "userId");
      requireUuid(b.mfaPolicyId, "mfaPolicyId", "mfa policy");
      const p = ctx.rt.store.mfaPolicies.get(ctx.org.id, user.id, b.mfaPolicyId);
      if (!p) throw notFound(`mfa policy not found: ${b.mfaPolicyId}`);
      return { mfaPolicy: renderMfaPolicy(p) };
    },
  }),

  /** One status per user whose MFA policy applied to the activity (proposer and approvers), or only `userId`'s. */
  defineQuery("get_mfa_status", {
    run(ctx, b) {
      requireUuid(b.activityId, "activityId", "activity");
      const a = ctx.rt.store.activities.get(ctx.org.id, b.activityId);
      if (!a) throw notFound(`activity not found: ${b.activityId}`);
      if (b.userId !== undefined) requireUuid(b.userId, "userId", "user");
      const statuses = ctx.rt.store.mfaChallenges.forActivity(a.id).filter((c) => b.userId === undefined || c.userId === b.userId);
      return { mfaStatuses: statuses.map(renderMfaStatus) };
    },
  }),
];
