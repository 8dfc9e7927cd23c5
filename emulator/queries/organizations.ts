/** Reads of the organization itself. */
import { defineQuery } from "../operations/define.js";

export const organizationQueryOperations = [
  defineQuery("get_organization_configs", {
    run(ctx) {
      const org = ctx.org;
      return {
        configs: {
          features: org.features,
          quorum: { threshold: org.rootQuorumThreshold, userIds: org.rootUserIds },
        },
      };
    },
  }),
];
