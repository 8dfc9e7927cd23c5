/** Every emulated query, by operation name (the last segment of its query path). */
import type { QueryTable } from "./types.js";
import { userQueries } from "./users.js";
import { organizationQueries } from "./organizations.js";
import { activityQueries } from "./activities.js";
import { walletQueries } from "./wallets.js";
import { subOrganizationQueries } from "./sub-organizations.js";
import { oauthQueries } from "./oauth.js";
import { policyQueries } from "./policies.js";

export const queryHandlers: QueryTable = {
  ...userQueries,
  ...organizationQueries,
  ...activityQueries,
  ...walletQueries,
  ...subOrganizationQueries,
  ...oauthQueries,
  ...policyQueries,
};
