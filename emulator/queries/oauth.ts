/** Reads of OAuth providers. */
import { toTimestamp } from "../clock.js";
import { requireUser } from "../activities/lookups.js";
import type { OauthProviderRow } from "../store/oauth-providers.js";
import type { QueryTable } from "./types.js";

export function renderOauthProvider(p: OauthProviderRow): Record<string, unknown> {
  return {
    providerId: p.id,
    providerName: p.name,
    issuer: p.issuer,
    audience: p.audience,
    subject: p.subject,
    createdAt: toTimestamp(p.createdAt),
    updatedAt: toTimestamp(p.updatedAt),
  };
}

export const oauthQueries: QueryTable = {
  get_oauth_providers(ctx, b: { userId?: string }) {
    const { store } = ctx.rt;
    const rows = b.userId ? store.oauthProviders.forUser(requireUser(store, ctx.org.id, b.userId, "userId").id) : store.oauthProviders.forOrg(ctx.org.id);
    return { oauthProviders: rows.map(renderOauthProvider) };
  },
};
