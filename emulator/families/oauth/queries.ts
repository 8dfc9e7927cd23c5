/** Reads of OAuth providers. */
import { requireUser } from "../../core/vocabulary/lookups.js";
import { renderOauthProvider } from "../../core/views/users.js";
import { toTimestamp } from "../../core/clock.js";
import { notFound } from "../../core/errors.js";
import type { Oauth2CredentialRow } from "./oauth2-repository.js";
import type { Wire } from "../../../contracts/wire.js";
import { defineQuery } from "../../core/vocabulary/define.js";

export const oauthQueryOperations = [
  defineQuery("get_oauth_providers", {
    run(ctx, b) {
      const { store } = ctx.rt;
      const rows = b.userId ? store.oauthProviders.forUser(requireUser(store, ctx.org.id, b.userId, "userId").id) : store.oauthProviders.forOrg(ctx.org.id);
      return { oauthProviders: rows.map(renderOauthProvider) };
    },
  }),

  defineQuery("get_oauth2_credential", {
    run(ctx, b) {
      const c = ctx.rt.store.oauth2.get(ctx.org.id, b.oauth2CredentialId);
      if (!c) throw notFound(`oauth2 credential not found: ${b.oauth2CredentialId}`, "OAUTH2_CREDENTIAL_NOT_FOUND");
      return { oauth2Credential: renderOauth2Credential(c) };
    },
  }),

  defineQuery("list_oauth2_credentials", {
    run(ctx) {
      return { oauth2Credentials: ctx.rt.store.oauth2.list(ctx.org.id).map(renderOauth2Credential) };
    },
  }),
];

function renderOauth2Credential(c: Oauth2CredentialRow): Wire["v1Oauth2Credential"] {
  return {
    oauth2CredentialId: c.id,
    organizationId: c.orgId,
    provider: c.provider as Wire["v1Oauth2Provider"],
    clientId: c.clientId,
    encryptedClientSecret: c.encryptedClientSecret,
    createdAt: toTimestamp(c.createdAt),
    updatedAt: toTimestamp(c.updatedAt),
  };
}
