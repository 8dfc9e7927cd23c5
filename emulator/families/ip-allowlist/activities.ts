/**
 * set_ip_allowlist / remove_ip_allowlist: the IP allowlist of an organization (no `publicKey`)
 * or of one of its API keys. A set fully replaces the rules of its scope (normalized,
 * deduplicated, at most 10 IPv4 and 10 IPv6 blocks; cidr.ts); the
 * organization-level list needs `enabled`. Only top-level organizations have allowlists: a
 * sub-organization may not configure one. Enforcement: enforce.ts.
 */
import { invalidArgument, withField } from "../../core/errors.js";
import { normalizeRules } from "./cidr.js";
import { allowlistScope } from "./enforce.js";
import { ORGANIZATION_LEVEL, type IpAllowlistRow } from "./repository.js";
import { INVALID_ACTIVITY_CALLER } from "../../core/vocabulary/lookups.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { quote } from "../../core/input-error.js";

const ON_EVALUATION_ERROR = ["ALLOW", "DENY"] as const;

function refuseInSubOrganization(ctx: ActivityContext): void {
  if (ctx.org.parentId) throw invalidArgument(`${INVALID_ACTIVITY_CALLER}: IP allowlists apply to the parent organization only`, undefined, "INVALID_ACTIVITY_CALLER");
}

export const ipAllowlistOperations = [
  defineActivity("set_ip_allowlist", {
    policy: { resource: "CONFIG", action: "UPDATE", source: "inferred" },
    run(ctx, p) {
      refuseInSubOrganization(ctx);
      const { store } = ctx.rt;
      const scope = allowlistScope(store, ctx.org.id, p.publicKey, "parameters.publicKey");
      if (scope === ORGANIZATION_LEVEL && typeof p.enabled !== "boolean")
        throw invalidArgument("enabled (true or false) is required for an organization-level allowlist", "parameters.enabled");
      const onEvaluationError = p.onEvaluationError === undefined || p.onEvaluationError === "" ? "DENY" : p.onEvaluationError;
      if (!(ON_EVALUATION_ERROR as readonly string[]).includes(onEvaluationError))
        throw invalidArgument(`onEvaluationError must be ALLOW or DENY, got ${quote(p.onEvaluationError)}`, "parameters.onEvaluationError");
      const rules = withField("parameters.rules", () => normalizeRules(p.rules ?? []));
      const before = new Map((store.ipAllowlists.get(ctx.org.id, scope)?.rules ?? []).map((r) => [r.cidr, r.createdAt]));
      const row: IpAllowlistRow = {
        orgId: ctx.org.id,
        publicKey: scope,
        enabled: scope === ORGANIZATION_LEVEL ? (p.enabled as boolean) : null,
        onEvaluationError: onEvaluationError as IpAllowlistRow["onEvaluationError"],
        rules: rules.map((r) => ({ cidr: r.cidr, label: r.label, createdAt: before.get(r.cidr) ?? ctx.now })),
        createdAt: ctx.now,
        updatedAt: ctx.now,
      };
      store.ipAllowlists.put(row);
      return {};
    },
  }),

  defineActivity("remove_ip_allowlist", {
    policy: { resource: "CONFIG", action: "DELETE", source: "inferred" },
    run(ctx, p) {
      refuseInSubOrganization(ctx);
      const scope = allowlistScope(ctx.rt.store, ctx.org.id, p.publicKey, "parameters.publicKey");
      // Removing a list that does not exist changes nothing and succeeds (UNCONFIRMED: the service documents no error for it).
      ctx.rt.store.ipAllowlists.delete(ctx.org.id, scope);
      return {};
    },
  }),
];
