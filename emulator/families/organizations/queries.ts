/** Reads of the organization itself. */
import { defineQuery } from "../../core/vocabulary/define.js";
import { renderOrganizationData } from "./views.js";

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

  // In the wider document @turnkey/http is generated from (getOrganization): the organization's
  // whole record, each list as the matching list query renders it.
  defineQuery("get_organization", {
    run(ctx) {
      return { organizationData: renderOrganizationData(ctx.rt.store, ctx.org) };
    },
  }),
];
