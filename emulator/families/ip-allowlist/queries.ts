/**
 * get_ip_allowlist: the organization-level list (no `publicKey`) or an API key's. A scope with
 * no list answers an allowlist with no rules, as the service does after a removal; `enabled`
 * is present for the organization level only.
 */
import { allowlistScope } from "./enforce.js";
import { ORGANIZATION_LEVEL } from "./repository.js";
import { defineQuery } from "../../core/vocabulary/define.js";

export const ipAllowlistQueryOperations = [
  defineQuery("get_ip_allowlist", {
    run(ctx, b) {
      const scope = allowlistScope(ctx.rt.store, ctx.org.id, b.publicKey, "publicKey");
      const list = ctx.rt.store.ipAllowlists.get(ctx.org.id, scope);
      return {
        allowlist: {
          organizationId: ctx.org.id,
          ...(scope === ORGANIZATION_LEVEL ? { enabled: list?.enabled ?? false } : { publicKey: scope }),
          ...(list ? { onEvaluationError: list.onEvaluationError } : {}),
          rules: (list?.rules ?? []).map((r) => ({ cidr: r.cidr, label: r.label, createdAt: String(r.createdAt) })),
        },
      };
    },
  }),
];
