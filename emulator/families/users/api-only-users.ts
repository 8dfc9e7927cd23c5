/**
 * create_api_only_users: the retired path that @turnkey/http 6.2 and the official examples'
 * `createUser` still call. Each user gets P-256 API keys (the only curve of that version)
 * and user tags; the result lists the new user ids.
 */
import { defineActivity } from "../../core/vocabulary/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";
import { createUsers } from "./users.js";
import { asP256Keys } from "../../core/vocabulary/older-intents.js";

export const apiOnlyUserOperations = [
  defineActivity("create_api_only_users", {
    policy: { resource: "USER", action: "CREATE", source: "documented" },
    arrayLimits: { apiKeys: ALLOWANCE.credentialsPerUser },
    run(ctx, p) {
      const users = p.apiOnlyUsers.map((u) => ({
        userName: u.userName,
        userEmail: u.userEmail,
        userTags: u.userTags,
        apiKeys: asP256Keys(u.apiKeys),
        authenticators: [],
        oauthProviders: [],
      }));
      return { userIds: createUsers(ctx, users, "parameters.apiOnlyUsers") };
    },
  }),
];
