/** Policies and smart contract interfaces, over domain/policies.ts. */
import {
  createPolicies,
  createSmartContractInterface,
  deletePolicies,
  deletePolicy,
  deleteSmartContractInterface,
  updatePolicy,
} from "../../domain/policies.js";
import { defineActivity } from "../../operations/define.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

export const policyOperations = [
  defineActivity("create_policy", {
    policy: { resource: "POLICY", action: "CREATE", source: "documented" },
    run: (ctx, p) => ({ policyId: createPolicies(ctx, [p], () => "parameters")[0]! }),
  }),

  defineActivity("create_policies", {
    policy: { resource: "POLICY", action: "CREATE", source: "documented" },
    arrayLimits: { policies: ALLOWANCE.policiesPerOrganization },
    run: (ctx, p) => ({ policyIds: createPolicies(ctx, p.policies, (i) => `parameters.policies[${i}]`) }),
  }),

  defineActivity("update_policy", {
    policy: { resource: "POLICY", action: "UPDATE", source: "documented" },
    run: (ctx, p) => ({ policyId: updatePolicy(ctx, p) }),
  }),

  defineActivity("delete_policy", {
    policy: { resource: "POLICY", action: "DELETE", source: "documented" },
    run: (ctx, p) => ({ policyId: deletePolicy(ctx, p.policyId) }),
  }),

  defineActivity("delete_policies", {
    policy: { resource: "POLICY", action: "DELETE", source: "documented" },
    run: (ctx, p) => ({ policyIds: deletePolicies(ctx, p.policyIds) }),
  }),

  defineActivity("create_smart_contract_interface", {
    policy: { resource: "SMART_CONTRACT_INTERFACE", action: "CREATE", source: "inferred" },
    run: (ctx, p) => ({ smartContractInterfaceId: createSmartContractInterface(ctx, p) }),
  }),

  defineActivity("delete_smart_contract_interface", {
    policy: { resource: "SMART_CONTRACT_INTERFACE", action: "DELETE", source: "inferred" },
    run: (ctx, p) => ({ smartContractInterfaceId: deleteSmartContractInterface(ctx, p.smartContractInterfaceId) }),
  }),
];
