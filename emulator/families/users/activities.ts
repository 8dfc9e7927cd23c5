/** Users: create_users (V4; V1-V3 mapped onto it), update_user(_name/_email/_phone_number), delete_users, over users.ts. */
import { invalidArgument } from "../../core/errors.js";
import { createUsers, deleteUsers, updateUser, updateUserContact } from "./users.js";
import { defineActivity, type IntentOf } from "../../core/vocabulary/define.js";
import { ALLOWANCE, NEW_USER_CREDENTIALS } from "../../limits/request-limits.js";
import { asP256Keys, checkFirstAuthenticators, currentAuthenticator } from "../../core/vocabulary/older-intents.js";

type FirstUser = IntentOf<"ACTIVITY_TYPE_CREATE_USERS">["users"][number];

/**
 * The first version's access type, honoured where a user's record can still hold it: its
 * credentials. A dashboard-only user (ACCESS_TYPE_WEB) gets no API keys, an API-only user
 * (ACCESS_TYPE_API) no passkeys ("whether a user has access to Turnkey via our dashboard, API or
 * both": tkhq/docs docs/user-management/Introduction.md:12, 2023-10).
 */
function checkAccessTypes(users: readonly FirstUser[]): void {
  users.forEach((u, i) => {
    const field = `parameters.users[${i}]`;
    if (u.accessType === "ACCESS_TYPE_WEB" && u.apiKeys.length) throw invalidArgument("a user with accessType ACCESS_TYPE_WEB signs in through the dashboard only: it takes no API keys", `${field}.apiKeys`);
    if (u.accessType === "ACCESS_TYPE_API" && u.authenticators.length) throw invalidArgument("a user with accessType ACCESS_TYPE_API uses API keys only: it takes no authenticators", `${field}.authenticators`);
    // Its passkeys' `userId` can name no user: the user is made by this activity.
    checkFirstAuthenticators(u.authenticators, `${field}.authenticators`);
  });
}

export const userOperations = [
  defineActivity("create_users", {
    policy: { resource: "USER", action: "CREATE", source: "documented" },
    arrayLimits: { users: ALLOWANCE.usersPerOrganization, ...NEW_USER_CREDENTIALS },
    // Turnkey's Python, Kotlin, Ruby (0.0.18) and Dart (1.1.2) clients send V3 (oauthProviders V1).
    legacy: ["ACTIVITY_TYPE_CREATE_USERS_V3"],
    olderVersions: {
      ACTIVITY_TYPE_CREATE_USERS_V2: {
        params: (p) => ({ users: p.users.map((u) => ({ ...u, apiKeys: asP256Keys(u.apiKeys), oauthProviders: [] })) }),
      },
      ACTIVITY_TYPE_CREATE_USERS: {
        params: (p) => ({
          users: p.users.map(({ accessType: _, ...u }) => ({ ...u, apiKeys: asP256Keys(u.apiKeys), authenticators: u.authenticators.map(currentAuthenticator), oauthProviders: [] })),
        }),
        run(_ctx, p, current) {
          checkAccessTypes(p.users);
          return current();
        },
      },
    },
    run(ctx, p) {
      return { userIds: createUsers(ctx, p.users, "parameters.users") };
    },
  }),

  defineActivity("update_user", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run(ctx, p) {
      return { userId: updateUser(ctx, p) };
    },
  }),

  defineActivity("update_user_name", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run(ctx, p) {
      return { userId: updateUser(ctx, { userId: p.userId, userName: p.userName }) };
    },
  }),

  defineActivity("update_user_email", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run: (ctx, p) => ({ userId: updateUserContact(ctx, p.userId, "OTP_TYPE_EMAIL", p.userEmail, p.verificationToken) }),
  }),

  defineActivity("update_user_phone_number", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run: (ctx, p) => ({ userId: updateUserContact(ctx, p.userId, "OTP_TYPE_SMS", p.userPhoneNumber, p.verificationToken) }),
  }),

  defineActivity("delete_users", {
    policy: { resource: "USER", action: "DELETE", source: "documented", params: [["user_ids", "userIds"]] },
    run(ctx, p) {
      return { userIds: deleteUsers(ctx, p.userIds) };
    },
  }),
];
