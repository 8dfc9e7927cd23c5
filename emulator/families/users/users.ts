/**
 * Users: the one place a user row is written, whoever creates it (create_users, sub-org
 * creation, signup through the auth proxy, the proxy user, fixtures), so that every user
 * gets the same defaults; a user created by a request comes with its credentials and tags,
 * within the organization's user limit. Updates and deletion of users, too.
 */
import { resourceExhausted, documentedError } from "../../core/errors.js";
import type { Store } from "../../core/store/index.js";
import { addApiKeys, type ApiKeyParams } from "./api-keys.js";
import { addAuthenticators, type AuthenticatorParams } from "./authenticators.js";
import { addOauthProviders, type OauthProviderParams } from "./oauth-providers.js";
import { checkEmail, checkName, checkPhone, requireDistinct, requireNonEmpty, requireUser } from "../../core/vocabulary/lookups.js";
import { requireUserTags } from "./tags.js";
import { consumeContactVerification } from "../../core/auth/verification-tokens.js";
import type { DomainContext } from "../../core/vocabulary/domain-context.js";

/** Limit of the real service. */
export const MAX_USERS_PER_ORG = 100;

export type NewUser = {
  /** A new id (`rt.random.uuid()`) or the fixture's. */
  id: string;
  orgId: string;
  name: string;
  email?: string | null;
  phone?: string | null;
  /** A contact is verified only when a verification token (or a fixture) vouches for it. */
  emailVerified?: boolean;
  phoneVerified?: boolean;
};

/** Writes a user; returns its id. */
export function insertUser(store: Store, u: NewUser, now: number): string {
  const id = u.id;
  store.users.insert({
    id,
    orgId: u.orgId,
    name: u.name,
    email: u.email ?? null,
    phone: u.phone ?? null,
    emailVerified: u.emailVerified ?? false,
    phoneVerified: u.phoneVerified ?? false,
    createdAt: now,
    updatedAt: now,
  });
  return id;
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

/** The per-organization user limit: over it, 429 ResourceExhausted like the service's other limits. */
export function requireRoomForUsers(ctx: DomainContext, adding: number): void {
  if (ctx.rt.store.users.count(ctx.org.id) + adding > MAX_USERS_PER_ORG) {
    throw resourceExhausted(`organization has reached the maximum of ${MAX_USERS_PER_ORG} users`);
  }
}

/** Creates one user with its credentials in `orgId`; shared with sub-organization creation. */
export function createUser(ctx: DomainContext, orgId: string, u: UserParams, field: string): string {
  const { store } = ctx.rt;
  checkName(u.userName, `${field}.userName`);
  if (u.userEmail !== undefined) checkEmail(u.userEmail, `${field}.userEmail`);
  if (u.userPhoneNumber !== undefined) checkPhone(u.userPhoneNumber, `${field}.userPhoneNumber`);
  const id = insertUser(store, { id: ctx.rt.random.uuid(), orgId, name: u.userName, email: u.userEmail, phone: u.userPhoneNumber }, ctx.now);
  addApiKeys(ctx, orgId, id, u.apiKeys ?? [], `${field}.apiKeys`);
  addAuthenticators(ctx, orgId, id, u.authenticators ?? [], `${field}.authenticators`);
  addOauthProviders(ctx, orgId, id, u.oauthProviders ?? [], `${field}.oauthProviders`);
  for (const tagId of u.userTags ?? []) store.tags.addMember(tagId, id);
  return id;
}

/** Creates users in the organization (the list at `field`, e.g. `parameters.users`); returns their ids. */
export function createUsers(ctx: DomainContext, users: UserParams[], field: string): string[] {
  requireNonEmpty(users, field);
  requireRoomForUsers(ctx, users.length);
  users.forEach((u, i) => requireUserTags(ctx, u.userTags ?? [], `${field}[${i}].userTags`));
  return users.map((u, i) => createUser(ctx, ctx.org.id, u, `${field}[${i}]`));
}

export type UserUpdate = { userId: string; userName?: string; userEmail?: string; userPhoneNumber?: string; userTagIds?: string[] };

/**
 * update_user: the fields given change; an empty email or phone number clears it, and a
 * changed contact is no longer verified. Tags given replace the user's tags.
 */
export function updateUser(ctx: DomainContext, p: UserUpdate): string {
  const { store } = ctx.rt;
  const user = requireUser(store, ctx.org.id, p.userId, "parameters.userId");
  if (p.userName !== undefined) checkName(p.userName, "parameters.userName");
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
  return user.id;
}

/** Deletes users that are not in the root quorum, all or none; returns the ids. */
export function deleteUsers(ctx: DomainContext, userIds: string[]): string[] {
  const { store } = ctx.rt;
  requireNonEmpty(userIds, "parameters.userIds");
  requireDistinct(userIds, "parameters.userIds");
  for (const id of userIds) {
    requireUser(store, ctx.org.id, id, "parameters.userIds");
    if (ctx.org.rootUserIds.includes(id)) {
      throw documentedError("QUORUM_USERS_MISSING", "remove the user from the root quorum before deleting it", "parameters.userIds");
    }
  }
  for (const id of userIds) {
    store.tags.removeMemberEverywhere(id);
    store.users.delete(id);
  }
  return userIds;
}

/**
 * update_user_email / update_user_phone_number: an empty value clears the contact; with an OTP
 * verification token for the new contact, the contact is stored verified.
 */
export function updateUserContact(ctx: DomainContext, userId: string, kind: "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS", value: string, verificationToken?: string): string {
  const user = requireUser(ctx.rt.store, ctx.org.id, userId, "parameters.userId");
  const email = kind === "OTP_TYPE_EMAIL";
  if (value) (email ? checkEmail : checkPhone)(value, email ? "parameters.userEmail" : "parameters.userPhoneNumber");
  if (verificationToken) consumeContactVerification(ctx, verificationToken, kind, value);
  const verified = !!verificationToken;
  ctx.rt.store.users.update(user.id, email ? { email: value || null, emailVerified: verified } : { phone: value || null, phoneVerified: verified }, ctx.now);
  return user.id;
}
