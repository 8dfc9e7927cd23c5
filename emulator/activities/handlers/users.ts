/** Users: create_users (V4), update_user(_name/_email/_phone_number), delete_users. */
import { invalidArgument, resourceExhausted, documentedError } from "../../errors.js";
import { consumeContactVerification } from "./otp.js";
import { insertUser } from "../../domain/users.js";
import { addApiKeys, type ApiKeyParams } from "./api-keys.js";
import { addAuthenticators, type AuthenticatorParams } from "./authenticators.js";
import { addOauthProviders, type OauthProviderParams } from "./oauth.js";
import { checkEmail, checkName, checkPhone, requireDistinct, requireUser } from "../lookups.js";
import type { ActivityContext } from "../types.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE, NEW_USER_CREDENTIALS } from "../../limits/request-limits.js";

/** Limit of the real service. */
export const MAX_USERS_PER_ORG = 100;

/** The per-organization user limit: over it, 429 ResourceExhausted like the service's other limits. */
export function requireRoomForUsers(ctx: ActivityContext, adding: number): void {
  if (ctx.rt.store.users.count(ctx.org.id) + adding > MAX_USERS_PER_ORG) {
    throw resourceExhausted(`organization has reached the maximum of ${MAX_USERS_PER_ORG} users`);
  }
}

export type UserParams = {
  userName: string;
  userEmail?: string;
  userPhoneNumber?: string;
  apiKeys: ApiKeyParams[];
  authenticators: AuthenticatorParams[];
  oauthProviders: OauthProviderParams[];
  userTags?: string[];
};

export function requireUserTags(ctx: ActivityContext, tagIds: string[], field: string): void {
  requireDistinct(tagIds, field);
  for (const id of tagIds) {
    if (!ctx.rt.store.tags.get(ctx.org.id, id, "TAG_TYPE_USER")) throw invalidArgument(`user tag not found: ${id}`, field);
  }
}

/** Creates one user with its credentials in `orgId`; shared with sub-organization creation. */
export function createUser(ctx: ActivityContext, orgId: string, u: UserParams, field: string): string {
  const { store } = ctx.rt;
  checkName(u.userName, `${field}.userName`);
  if (u.userEmail !== undefined) checkEmail(u.userEmail, `${field}.userEmail`);
  if (u.userPhoneNumber !== undefined) checkPhone(u.userPhoneNumber, `${field}.userPhoneNumber`);
  const id = insertUser(store, { orgId, name: u.userName, email: u.userEmail, phone: u.userPhoneNumber }, ctx.now);
  addApiKeys(ctx, orgId, id, u.apiKeys ?? [], `${field}.apiKeys`);
  addAuthenticators(ctx, orgId, id, u.authenticators ?? [], `${field}.authenticators`);
  addOauthProviders(ctx, orgId, id, u.oauthProviders ?? [], `${field}.oauthProviders`);
  for (const tagId of u.userTags ?? []) store.tags.addMember(tagId, id);
  return id;
}

/**
 * update_user_email / update_user_phone_number: an empty value clears the contact; with an OTP
 * verification token for the new contact, the contact is stored verified.
 */
function updateContact(ctx: ActivityContext, userId: string, kind: "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS", value: string, verificationToken?: string) {
  const user = requireUser(ctx.rt.store, ctx.org.id, userId, "parameters.userId");
  const email = kind === "OTP_TYPE_EMAIL";
  if (value) (email ? checkEmail : checkPhone)(value, email ? "parameters.userEmail" : "parameters.userPhoneNumber");
  if (verificationToken) consumeContactVerification(ctx, verificationToken, kind, value);
  const verified = !!verificationToken;
  ctx.rt.store.users.update(user.id, email ? { email: value || null, emailVerified: verified } : { phone: value || null, phoneVerified: verified }, ctx.now);
  return { userId: user.id };
}

export const userOperations = [
  defineActivity("create_users", {
    policy: { resource: "USER", action: "CREATE", source: "documented" },
    arrayLimits: { users: ALLOWANCE.usersPerOrganization, ...NEW_USER_CREDENTIALS },
    // Turnkey's Python, Kotlin, Ruby (0.0.18) and Dart (1.1.2) clients send V3 (oauthProviders V1).
    legacy: ["ACTIVITY_TYPE_CREATE_USERS_V3"],
    run(ctx, p) {
      if (!p.users.length) throw invalidArgument("users must not be empty", "parameters.users");
      requireRoomForUsers(ctx, p.users.length);
      p.users.forEach((u, i) => requireUserTags(ctx, u.userTags ?? [], `parameters.users[${i}].userTags`));
      return { userIds: p.users.map((u, i) => createUser(ctx, ctx.org.id, u, `parameters.users[${i}]`)) };
    },
  }),

  defineActivity("update_user", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run(ctx, p) {
      const { store } = ctx.rt;
      const user = requireUser(store, ctx.org.id, p.userId, "parameters.userId");
      if (p.userName !== undefined) checkName(p.userName, "parameters.userName");
      // Empty strings clear the optional contact fields.
      if (p.userEmail) checkEmail(p.userEmail, "parameters.userEmail");
      if (p.userPhoneNumber) checkPhone(p.userPhoneNumber, "parameters.userPhoneNumber");
      if (p.userTagIds) requireUserTags(ctx, p.userTagIds, "parameters.userTagIds");
      store.users.update(
        user.id,
        {
          ...(p.userName !== undefined ? { name: p.userName } : {}),
          ...(p.userEmail !== undefined ? { email: p.userEmail || null, emailVerified: p.userEmail === user.email && user.emailVerified } : {}),
          ...(p.userPhoneNumber !== undefined ? { phone: p.userPhoneNumber || null, phoneVerified: p.userPhoneNumber === user.phone && user.phoneVerified } : {}),
        },
        ctx.now,
      );
      if (p.userTagIds) {
        for (const tagId of store.tags.tagsOf(user.id)) store.tags.removeMember(tagId, user.id);
        for (const tagId of p.userTagIds) store.tags.addMember(tagId, user.id);
      }
      return { userId: user.id };
    },
  }),

  defineActivity("update_user_name", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run(ctx, p) {
      const user = requireUser(ctx.rt.store, ctx.org.id, p.userId, "parameters.userId");
      checkName(p.userName, "parameters.userName");
      ctx.rt.store.users.update(user.id, { name: p.userName }, ctx.now);
      return { userId: user.id };
    },
  }),

  defineActivity("update_user_email", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run: (ctx, p) => updateContact(ctx, p.userId, "OTP_TYPE_EMAIL", p.userEmail, p.verificationToken),
  }),

  defineActivity("update_user_phone_number", {
    policy: { resource: "USER", action: "UPDATE", source: "documented" },
    run: (ctx, p) => updateContact(ctx, p.userId, "OTP_TYPE_SMS", p.userPhoneNumber, p.verificationToken),
  }),

  defineActivity("delete_users", {
    policy: { resource: "USER", action: "DELETE", source: "documented", params: [["user_ids", "userIds"]] },
    run(ctx, p) {
      const { store } = ctx.rt;
      if (!p.userIds.length) throw invalidArgument("userIds must not be empty", "parameters.userIds");
      requireDistinct(p.userIds, "parameters.userIds");
      for (const id of p.userIds) {
        requireUser(store, ctx.org.id, id, "parameters.userIds");
        if (ctx.org.rootUserIds.includes(id)) {
          throw documentedError("QUORUM_USERS_MISSING", "remove the user from the root quorum before deleting it", "parameters.userIds");
        }
      }
      for (const id of p.userIds) {
        store.tags.removeMemberEverywhere(id);
        store.users.delete(id);
      }
      return { userIds: p.userIds };
    },
  }),
];
