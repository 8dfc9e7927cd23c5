/**
 * The auth proxy's coordinator activities: enable_auth_proxy (creates the proxy user, its key
 * and policy; result `{userId}`), disable_auth_proxy, update_auth_proxy_config (result
 * `{configId}`). Only a top-level organization has an auth proxy.
 */
import { invalidArgument } from "../../errors.js";
import { disableAuthProxy, enableAuthProxy } from "../../proxy/provision.js";
import { mergeSettings, type AuthProxySettings } from "../../proxy/settings.js";
import type { ActivityContext, HandlerTable } from "../types.js";

function topLevel(ctx: ActivityContext): void {
  if (ctx.org.parentId) throw invalidArgument("This activity cannot be called by sub-organizations", undefined, "INVALID_ACTIVITY_CALLER");
}

export const authProxyHandlers: HandlerTable = {
  enable_auth_proxy(ctx) {
    topLevel(ctx);
    return { userId: enableAuthProxy(ctx.rt.store, ctx.org.id, ctx.now).proxyUserId };
  },

  disable_auth_proxy(ctx) {
    topLevel(ctx);
    disableAuthProxy(ctx.rt.store, ctx.org.id, ctx.now);
    return {};
  },

  update_auth_proxy_config(ctx, p: AuthProxySettings) {
    topLevel(ctx);
    const cur = ctx.rt.store.authProxyConfigs.forOrg(ctx.org.id);
    if (!cur) throw invalidArgument("the auth proxy has never been enabled for this organization: submit enable_auth_proxy first", "organizationId");
    ctx.rt.store.authProxyConfigs.update(ctx.org.id, { settings: mergeSettings(cur.settings as AuthProxySettings, p) }, ctx.now);
    return { configId: cur.configId };
  },
};
