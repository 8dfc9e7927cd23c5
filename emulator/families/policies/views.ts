/** Wire forms of policies, smart contract interfaces and policy evaluations. */
import { toTimestamp } from "../../core/clock.js";
import type { PolicyEvaluationRow, PolicyRow, SmartContractInterfaceRow } from "../../core/store/policies.js";
import type { Wire } from "../../../contracts/wire.js";

export function renderPolicy(p: PolicyRow): Wire["v1Policy"] {
  return {
    policyId: p.id,
    policyName: p.name,
    effect: p.effect as Wire["v1Effect"],
    createdAt: toTimestamp(p.createdAt),
    updatedAt: toTimestamp(p.updatedAt),
    notes: p.notes,
    consensus: p.consensus ?? "",
    condition: p.condition ?? "",
    ...(p.time ? { time: p.time } : {}),
  };
}

export function renderSmartContractInterface(s: SmartContractInterfaceRow): Wire["externaldatav1SmartContractInterface"] {
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

export function renderPolicyEvaluation(e: PolicyEvaluationRow): Wire["externalactivityv1PolicyEvaluation"] {
  return {
    id: e.id,
    activityId: e.activityId,
    organizationId: e.orgId,
    voteId: e.voteId ?? "",
    policyEvaluations: e.evaluations as Wire["immutablecommonv1PolicyEvaluation"][],
    createdAt: toTimestamp(e.createdAt),
  };
}
