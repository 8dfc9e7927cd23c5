/** The organization itself: root quorum, features, name (all root-quorum activities). */
import { invalidArgument, documentedError } from "../../core/errors.js";
import type { Feature } from "../../core/store/organizations.js";
import { checkName, requireDistinct, requireUser } from "../../core/vocabulary/lookups.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { checkLegacyWebhookFeature } from "../webhooks/index.js";

export const organizationOperations = [
  defineActivity("update_root_quorum", {
    policy: { resource: "ORGANIZATION", action: "UPDATE", source: "inferred" },
    authorization: "root-quorum",
    run(ctx, p) {
      if (!Number.isInteger(p.threshold) || p.threshold < 1) throw documentedError("QUORUM_THRESHOLD_NOT_POSITIVE", undefined, "parameters.threshold");
      if (!p.userIds.length) throw documentedError("QUORUM_USERS_MISSING", undefined, "parameters.userIds");
      requireDistinct(p.userIds, "parameters.userIds");
      p.userIds.forEach((id, i) => requireUser(ctx.rt.store, ctx.org.id, id, `parameters.userIds[${i}]`));
      if (p.threshold > p.userIds.length) throw invalidArgument("quorum threshold must not exceed the number of quorum users", "parameters.threshold");
      ctx.rt.store.organizations.update(ctx.org.id, { rootQuorumThreshold: p.threshold, rootUserIds: p.userIds }, ctx.now);
      return {};
    },
  }),

  defineActivity("set_organization_feature", {
    policy: { resource: "ORGANIZATION", action: "UPDATE", source: "inferred" },
    authorization: "root-quorum",
    run(ctx, p) {
      checkLegacyWebhookFeature(ctx.rt, p.name, p.value); // FEATURE_NAME_WEBHOOK: its value is a webhook URL
      const features: Feature[] = [...ctx.org.features.filter((f) => f.name !== p.name), { name: p.name, value: p.value }];
      ctx.rt.store.organizations.update(ctx.org.id, { features }, ctx.now);
      return { features };
    },
  }),

  defineActivity("remove_organization_feature", {
    policy: { resource: "ORGANIZATION", action: "UPDATE", source: "inferred" },
    authorization: "root-quorum",
    run(ctx, p) {
      if (!ctx.org.features.some((f) => f.name === p.name)) throw invalidArgument(`feature ${p.name} is not set`, "parameters.name");
      const features = ctx.org.features.filter((f) => f.name !== p.name);
      ctx.rt.store.organizations.update(ctx.org.id, { features }, ctx.now);
      return { features };
    },
  }),

  defineActivity("update_organization_name", {
    policy: { resource: "ORGANIZATION", action: "UPDATE", source: "inferred" },
    authorization: "root-quorum",
    run(ctx, p) {
      checkName(p.organizationName, "parameters.organizationName");
      ctx.rt.store.organizations.update(ctx.org.id, { name: p.organizationName }, ctx.now);
      return { organizationId: ctx.org.id, organizationName: p.organizationName };
    },
  }),
];
