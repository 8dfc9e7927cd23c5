/** Wire forms of policies, smart contract interfaces and policy evaluations. */
import { toTimestamp } from "../clock.js";
import type { PolicyEvaluationRow, PolicyRow, SmartContractInterfaceRow } from "../store/policies.js";

export function renderPolicy(p: PolicyRow): Record<string, unknown> {
  return {
    policyId: p.id,
    policyName: p.name,
    effect: p.effect,
    createdAt: toTimestamp(p.createdAt),
    updatedAt: toTimestamp(p.updatedAt),
    notes: p.notes,
    consensus: p.consensus ?? "",
    condition: p.condition ?? "",
    ...(p.time ? { time: p.time } : {}),
  };
}

export function renderSmartContractInterface(s: SmartContractInterfaceRow): Record<string, unknown> {
  return {
    organizationId: s.orgId,
    smartContractInterfaceId: s.id,
    smartContractAddress: s.address,
    smartContractInterface: s.interface,
    type: s.type,
    label: s.label,
    notes: s.notes,
    createdAt: toTimestamp(s.createdAt),
    updatedAt: toTimestamp(s.updatedAt),
  };
}

export function renderPolicyEvaluation(e: PolicyEvaluationRow): Record<string, unknown> {
  return {
    id: e.id,
    activityId: e.activityId,
    organizationId: e.orgId,
    voteId: e.voteId ?? "",
    policyEvaluations: e.evaluations,
    createdAt: toTimestamp(e.createdAt),
  };
}
