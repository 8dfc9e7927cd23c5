/**
 * The decision on an activity, given every vote cast so far, in the service's order:
 *   1. root quorum: enough approving root users -> allow (policies are not consulted);
 *   2. root-quorum-only activities: otherwise consensus (a root user proposed) or deny;
 *   3. implicit allow: a user acting on their own credentials;
 *   4. policies: explicit deny, then allow, then consensus needed, else implicit deny.
 * A proposal by a root user under a threshold above one waits for more root votes even
 * when no policy would allow it. A denial's failure (activities/denial.ts) is what the request
 * answers as an HTTP 403 once the FAILED activity is recorded (activities/engine.ts).
 */
import type { RpcStatus } from "../errors.js";
import { compilePolicy, evaluatePolicies, type CompiledPolicy } from "../policy/index.js";
import type { Runtime } from "../runtime.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { StoredVote } from "../store/activities.js";
import type { ActivityEntry } from "../operations/define.js";
import { buildPolicyContext } from "./policy-context.js";
import { policyDenial, rootQuorumDenial } from "./denial.js";

export type PolicyEvaluationResult = { policyId: string; outcome: string };

export type Decision =
  | { outcome: "allow"; evaluations: PolicyEvaluationResult[] }
  | { outcome: "consensus"; evaluations: PolicyEvaluationResult[] }
  | { outcome: "deny"; failure: RpcStatus; evaluations: PolicyEvaluationResult[] };

function compiledPolicies(rt: Runtime, orgId: string): CompiledPolicy[] {
  // Expressions were validated at creation; the parser caches them by text.
  return rt.store.policies.list(orgId).map((p) => compilePolicy({ policyId: p.id, effect: p.effect, condition: p.condition, consensus: p.consensus, time: p.time }));
}

export function decide(rt: Runtime, org: OrganizationRow, entry: ActivityEntry, activityType: string, params: Record<string, unknown>, votes: StoredVote[]): Decision {
  const approvers = new Set(votes.filter((v) => v.selection === "VOTE_SELECTION_APPROVED").map((v) => v.userId));
  const rootApprovals = [...approvers].filter((u) => org.rootUserIds.includes(u)).length;
  if (rootApprovals >= org.rootQuorumThreshold) return { outcome: "allow", evaluations: [] };

  if (entry.authorization === "root-quorum") {
    if (rootApprovals > 0) return { outcome: "consensus", evaluations: [] };
    return { outcome: "deny", failure: rootQuorumDenial(entry.name), evaluations: [] };
  }

  const actsOnOwnCredentials = entry.authorization === "own-credential" && approvers.size === 1 && typeof params.userId === "string" && approvers.has(params.userId);
  if (actsOnOwnCredentials) return { outcome: "allow", evaluations: [] };

  const context = buildPolicyContext(rt, org, activityType, params, entry.subjects(params), votes);
  const decision = evaluatePolicies(compiledPolicies(rt, org.id), context, { now: rt.clock.now() });
  const evaluations = decision.policyEvaluations.map((e) => ({ policyId: e.policyId, outcome: e.outcome }));
  switch (decision.outcome) {
    case "OUTCOME_ALLOW":
      return { outcome: "allow", evaluations };
    case "OUTCOME_DENY_EXPLICIT":
      return { outcome: "deny", failure: policyDenial(evaluations), evaluations };
    case "OUTCOME_REQUIRES_CONSENSUS":
      return { outcome: "consensus", evaluations };
    default:
      if (rootApprovals > 0) return { outcome: "consensus", evaluations };
      return { outcome: "deny", failure: policyDenial(evaluations), evaluations };
  }
}
