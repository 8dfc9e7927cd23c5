/** Policies (create_policy V3, its selector versions V1-V2 as conditions; update_policy V2 and V1) and smart contract interfaces, over policies.ts. */
import {
  createPolicies,
  createSmartContractInterface,
  deletePolicies,
  deletePolicy,
  deleteSmartContractInterface,
  updatePolicy,
} from "./policies.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import { selectorsCondition } from "../../policy/selectors.js";
import { ALLOWANCE } from "../../limits/request-limits.js";

export const policyOperations = [
  defineActivity("create_policy", {
    policy: { resource: "POLICY", action: "CREATE", source: "documented" },
    // Selectors are read as the condition they say; no consensus; notes, optional then, default to "".
    olderVersions: {
      ACTIVITY_TYPE_CREATE_POLICY_V2: {
        params: (p) => ({ policyName: p.policyName, effect: p.effect, notes: p.notes ?? "", condition: selectorsCondition(p.selectors, "parameters.selectors") }),
      },
      ACTIVITY_TYPE_CREATE_POLICY: {
        params: (p) => ({ policyName: p.policyName, effect: p.effect, notes: p.notes ?? "", condition: selectorsCondition(p.selectors, "parameters.selectors") }),
      },
    },
    run: (ctx, p) => ({ policyId: createPolicies(ctx, [p], () => "parameters")[0]! }),
  }),

  defineActivity("create_policies", {
    policy: { resource: "POLICY", action: "CREATE", source: "documented" },
    arrayLimits: { policies: ALLOWANCE.policiesPerOrganization },
    run: (ctx, p) => ({ policyIds: createPolicies(ctx, p.policies, (i) => `parameters.policies[${i}]`) }),
  }),

  defineActivity("update_policy", {
    policy: { resource: "POLICY", action: "UPDATE", source: "documented" },
    // V1 is V2 without `time`: a policy's time window stays as it is.
    olderVersions: { ACTIVITY_TYPE_UPDATE_POLICY: { params: (p) => p } },
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
