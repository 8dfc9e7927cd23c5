/** Users: create_users (V4), update_user(_name/_email/_phone_number), delete_users, over domain/users.ts. */
import { createUsers, deleteUsers, updateUser, updateUserContact } from "../../domain/users.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE, NEW_USER_CREDENTIALS } from "../../limits/request-limits.js";

export const userOperations = [
  defineActivity("create_users", {
    policy: { resource: "USER", action: "CREATE", source: "documented" },
    arrayLimits: { users: ALLOWANCE.usersPerOrganization, ...NEW_USER_CREDENTIALS },
    // Turnkey's Python, Kotlin, Ruby (0.0.18) and Dart (1.1.2) clients send V3 (oauthProviders V1).
    legacy: ["ACTIVITY_TYPE_CREATE_USERS_V3"],
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
