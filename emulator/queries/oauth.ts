/** Reads of OAuth providers. */
import { requireUser } from "../activities/lookups.js";
import { renderOauthProvider } from "../views/users.js";
import type { QueryTable } from "./types.js";

export const oauthQueries: QueryTable = {
  get_oauth_providers(ctx, b: { userId?: string }) {
    const { store } = ctx.rt;
    const rows = b.userId ? store.oauthProviders.forUser(requireUser(store, ctx.org.id, b.userId, "userId").id) : store.oauthProviders.forOrg(ctx.org.id);
    return { oauthProviders: rows.map(renderOauthProvider) };
  },
};
