/** Reads of the organization itself. */
import type { QueryTable } from "./types.js";

export const organizationQueries: QueryTable = {
  get_organization_configs(ctx) {
    const org = ctx.org;
    return {
      configs: {
        features: org.features,
        quorum: { threshold: org.rootQuorumThreshold, userIds: org.rootUserIds },
      },
    };
  },
};
