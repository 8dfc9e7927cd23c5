/** Reads of users, API keys and user tags, and whoami. */
import { notFound } from "../../core/errors.js";
import { requireUser, requireUuid } from "../../core/vocabulary/lookups.js";
import { renderApiKey, renderAuthenticator, renderTag, renderUser } from "../../core/views/users.js";
import { defineQuery } from "../../core/vocabulary/define.js";

export const userQueryOperations = [
  defineQuery("whoami", {
    servedInCallerOrg: true,
    run(ctx) {
      const { user, org } = ctx.caller;
      return { organizationId: org.id, organizationName: org.name, userId: user.id, username: user.name };
    },
  }),

  defineQuery("get_user", {
    run(ctx, b) {
      return { user: renderUser(ctx.rt.store, requireUser(ctx.rt.store, ctx.org.id, b.userId, "userId")) };
    },
  }),

  defineQuery("list_users", {
    run(ctx) {
      return { users: ctx.rt.store.users.list(ctx.org.id).map((u) => renderUser(ctx.rt.store, u)) };
    },
  }),

  defineQuery("get_api_key", {
    run(ctx, b) {
      requireUuid(b.apiKeyId, "apiKeyId", "api key");
      const key = ctx.rt.store.apiKeys.get(ctx.org.id, b.apiKeyId);
      if (!key) throw notFound(`api key not found: ${b.apiKeyId}`);
      return { apiKey: renderApiKey(key) };
    },
  }),

  defineQuery("get_api_keys", {
    run(ctx, b) {
      const { store } = ctx.rt;
      const keys = b.userId ? store.apiKeys.forUser(requireUser(store, ctx.org.id, b.userId, "userId").id) : store.apiKeys.forOrg(ctx.org.id);
      return { apiKeys: keys.map(renderApiKey) };
    },
  }),

  defineQuery("get_authenticator", {
    run(ctx, b) {
      requireUuid(b.authenticatorId, "authenticatorId", "authenticator");
      const a = ctx.rt.store.authenticators.get(ctx.org.id, b.authenticatorId);
      if (!a) throw notFound(`authenticator not found: ${b.authenticatorId}`);
      return { authenticator: renderAuthenticator(a) };
    },
  }),

  defineQuery("get_authenticators", {
    run(ctx, b) {
      const user = requireUser(ctx.rt.store, ctx.org.id, b.userId, "userId");
      return { authenticators: ctx.rt.store.authenticators.forUser(user.id).map(renderAuthenticator) };
    },
  }),

  defineQuery("list_user_tags", {
    run(ctx) {
      return { userTags: ctx.rt.store.tags.list(ctx.org.id, "TAG_TYPE_USER").map(renderTag) };
    },
  }),
];
