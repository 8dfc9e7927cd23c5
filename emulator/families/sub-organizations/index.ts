/** What the sub-organizations family offers the other families. */
export { listSubOrgs, SUBORG_FILTER_TYPES, VERIFIED_SUBORG_FILTER_TYPES } from "./queries.js";
