/** The organizations family: the organization's own activities (root quorum, features, name) and get_organization(_configs). */
import { defineFamily } from "../../core/family.js";
import { organizationOperations } from "./activities.js";
import { organizationQueryOperations } from "./queries.js";

export const organizationsFamily = defineFamily({
  name: "organizations",
  operations: [...organizationOperations, ...organizationQueryOperations],
});
