/** Reads of policies, smart contract interfaces and policy evaluations. */
import { notFound } from "../../core/errors.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import { renderPolicy, renderPolicyEvaluation, renderSmartContractInterface } from "./views.js";
import { defineQuery } from "../../core/vocabulary/define.js";
import { timeWindowStatus } from "../../policy/index.js";
import { compileStoredPolicy } from "../../core/engine/consensus.js";

export const policyQueryOperations = [
  defineQuery("get_policy", {
    run(ctx, b) {
      requireUuid(b.policyId, "policyId", "policy");
      const p = ctx.rt.store.policies.get(ctx.org.id, b.policyId);
      if (!p) throw notFound(`policy not found: ${b.policyId}`);
      return { policy: renderPolicy(p) };
    },
  }),

  defineQuery("list_policies", {
    run(ctx) {
      return { policies: ctx.rt.store.policies.list(ctx.org.id).map(renderPolicy) };
    },
  }),

  defineQuery("get_smart_contract_interface", {
    run(ctx, b) {
      requireUuid(b.smartContractInterfaceId, "smartContractInterfaceId", "smart contract interface");
      const s = ctx.rt.store.smartContractInterfaces.get(ctx.org.id, b.smartContractInterfaceId);
      if (!s) throw notFound(`smart contract interface not found: ${b.smartContractInterfaceId}`);
      return { smartContractInterface: renderSmartContractInterface(s) };
    },
  }),

  // Beyond the published documents; @turnkey/http 6.6 calls it (getActivePolicies). Each policy's
  // time window read at the emulated clock's now, as activities are decided.
  defineQuery("get_active_policies", {
    run(ctx) {
      const statuses = ctx.rt.store.policies.list(ctx.org.id).map((p) => {
        const window = timeWindowStatus(compileStoredPolicy(p), ctx.now);
        return { organizationId: ctx.org.id, policyId: p.id, active: window.active, ...(p.time ? { timeExpr: p.time } : {}), ...(window.error !== undefined ? { error: window.error } : {}) };
      });
      return { statuses, evaluatedAtMs: String(ctx.now) };
    },
  }),

  defineQuery("list_smart_contract_interfaces", {
    run(ctx) {
      return { smartContractInterfaces: ctx.rt.store.smartContractInterfaces.list(ctx.org.id).map(renderSmartContractInterface) };
    },
  }),

  defineQuery("get_policy_evaluations", {
    run(ctx, b) {
      requireUuid(b.activityId, "activityId", "activity");
      if (!ctx.rt.store.activities.get(ctx.org.id, b.activityId)) throw notFound(`activity not found: ${b.activityId}`);
      return { policyEvaluations: ctx.rt.store.policyEvaluations.forActivity(b.activityId).map(renderPolicyEvaluation) };
    },
  }),
];
