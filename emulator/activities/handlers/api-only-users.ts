/**
 * create_api_only_users: the retired path that @turnkey/http 6.2 and the official examples'
 * `createUser` still call. Each user gets P-256 API keys (the only curve of that version)
 * and user tags; the result lists the new user ids.
 */
import { invalidArgument } from "../../errors.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";
import { createUser, requireRoomForUsers, requireUserTags } from "./users.js";

export const apiOnlyUserOperations = [
  defineActivity("create_api_only_users", {
    policy: { resource: "USER", action: "CREATE", source: "documented" },
    arrayLimits: { apiKeys: ALLOWANCE.credentialsPerUser },
    run(ctx, p) {
      if (!p.apiOnlyUsers.length) throw invalidArgument("apiOnlyUsers must not be empty", "parameters.apiOnlyUsers");
      requireRoomForUsers(ctx, p.apiOnlyUsers.length);
      p.apiOnlyUsers.forEach((u, i) => requireUserTags(ctx, u.userTags, `parameters.apiOnlyUsers[${i}].userTags`));
      const userIds = p.apiOnlyUsers.map((u, i) =>
        createUser(
          ctx,
          ctx.org.id,
          {
            userName: u.userName,
            userEmail: u.userEmail,
            userTags: u.userTags,
            apiKeys: u.apiKeys.map((k) => ({ ...k, curveType: "API_KEY_CURVE_P256" })),
            authenticators: [],
            oauthProviders: [],
          },
          `parameters.apiOnlyUsers[${i}]`,
        ),
      );
      return { userIds };
    },
  }),
];
