/** Reads of policies, smart contract interfaces and policy evaluations. */
import { notFound } from "../errors.js";
import { requireUuid } from "../activities/lookups.js";
import { renderPolicy, renderPolicyEvaluation, renderSmartContractInterface } from "../views/policies.js";
import { defineQuery } from "../operations/define.js";

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
