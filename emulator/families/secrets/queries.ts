/**
 * list_secrets: the metadata of an organization's secrets (id, name, static properties,
 * creation time), newest first, paginated by secret id. Values never leave through a query.
 */
import { defineQuery } from "../../core/vocabulary/define.js";
import { pageOf } from "../../core/vocabulary/pagination.js";

export const secretQueryOperations = [
  defineQuery("list_secrets", {
    run(ctx, b) {
      const secrets = ctx.rt.store.secrets.forOrg(ctx.org.id).map((s) => ({
        secretId: s.id,
        ...(s.name !== null ? { name: s.name } : {}),
        staticProperties: s.staticProperties,
        createdAtUnixMs: String(s.createdAt),
      }));
      return { secrets: pageOf(secrets, (s) => s.secretId, b.paginationOptions) };
    },
  }),
];
