/** Reads of users, API keys and user tags, and whoami. */
import { notFound } from "../errors.js";
import { requireUser, requireUuid } from "../activities/lookups.js";
import { renderApiKey, renderAuthenticator, renderTag, renderUser } from "../views/users.js";
import type { QueryTable } from "./types.js";

export const userQueries: QueryTable = {
  whoami(ctx) {
    const { user, org } = ctx.caller;
    return { organizationId: org.id, organizationName: org.name, userId: user.id, username: user.name };
  },

  get_user(ctx, b: { userId: string }) {
    return { user: renderUser(ctx.rt.store, requireUser(ctx.rt.store, ctx.org.id, b.userId, "userId")) };
  },

  list_users(ctx) {
    return { users: ctx.rt.store.users.list(ctx.org.id).map((u) => renderUser(ctx.rt.store, u)) };
  },

  get_api_key(ctx, b: { apiKeyId: string }) {
    requireUuid(b.apiKeyId, "apiKeyId", "api key");
    const key = ctx.rt.store.apiKeys.get(ctx.org.id, b.apiKeyId);
    if (!key) throw notFound(`api key not found: ${b.apiKeyId}`);
    return { apiKey: renderApiKey(key) };
  },

  get_api_keys(ctx, b: { userId?: string }) {
    const { store } = ctx.rt;
    const keys = b.userId ? store.apiKeys.forUser(requireUser(store, ctx.org.id, b.userId, "userId").id) : store.apiKeys.forOrg(ctx.org.id);
    return { apiKeys: keys.map(renderApiKey) };
  },

  get_authenticator(ctx, b: { authenticatorId: string }) {
    requireUuid(b.authenticatorId, "authenticatorId", "authenticator");
    const a = ctx.rt.store.authenticators.get(ctx.org.id, b.authenticatorId);
    if (!a) throw notFound(`authenticator not found: ${b.authenticatorId}`);
    return { authenticator: renderAuthenticator(a) };
  },

  get_authenticators(ctx, b: { userId: string }) {
    const user = requireUser(ctx.rt.store, ctx.org.id, b.userId, "userId");
    return { authenticators: ctx.rt.store.authenticators.forUser(user.id).map(renderAuthenticator) };
  },

  list_user_tags(ctx) {
    return { userTags: ctx.rt.store.tags.list(ctx.org.id, "TAG_TYPE_USER").map(renderTag) };
  },
};
