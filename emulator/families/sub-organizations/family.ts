/** The sub-organizations family: create_sub_organization, delete_sub_organization, and the (verified) sub-organization lists. */
import { defineFamily } from "../../core/family.js";
import { subOrganizationOperations } from "./activities.js";
import { subOrganizationQueryOperations } from "./queries.js";

export const subOrganizationsFamily = defineFamily({
  name: "sub-organizations",
  operations: [...subOrganizationOperations, ...subOrganizationQueryOperations],
});
