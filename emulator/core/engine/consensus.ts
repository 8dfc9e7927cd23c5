/**
 * The decision on an activity, given every vote cast so far, in the service's order:
 *   1. root quorum: enough approving root users -> allow (policies are not consulted);
 *   2. root-quorum-only activities: otherwise consensus (a root user proposed) or deny;
 *   3. implicit allow: a user acting on their own credentials;
 *   4. policies: explicit deny, then allow, then consensus needed, else implicit deny.
 * A proposal by a root user under a threshold above one waits for more root votes even
 * when no policy would allow it. A denial's failure (denial.ts) is what the request
 * answers as an HTTP 403 once the FAILED activity is recorded (engine.ts).
 */
import type { RpcStatus } from "../errors.js";
import { isUuid } from "../ids.js";
import { compilePolicy, evaluatePolicies, type CompiledPolicy, type EvaluationContext } from "../../policy/index.js";
import type { Runtime } from "../runtime.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { StoredVote } from "../store/activities.js";
import type { PolicyRow } from "../store/policies.js";
import type { ActivityEntry } from "../vocabulary/define.js";
import type { ActivityFrame } from "./frame.js";
import { importTargetDenial, policyDenial, rootQuorumDenial, type PolicyEvaluationResult } from "./denial.js";

export type { PolicyEvaluationResult };

export type Decision =
  | { outcome: "allow"; evaluations: PolicyEvaluationResult[] }
  | { outcome: "consensus"; evaluations: PolicyEvaluationResult[] }
  | { outcome: "deny"; failure: RpcStatus; evaluations: PolicyEvaluationResult[] };

/**
 * A stored policy as the engine evaluates it. Expressions were validated at creation; the parser
 * caches them by text. `stored`: a policy written before double quotes were refused still evaluates.
 */
export function compileStoredPolicy(p: PolicyRow): CompiledPolicy {
  return compilePolicy({ policyId: p.id, effect: p.effect, condition: p.condition, consensus: p.consensus, time: p.time }, { stored: true });
}

function compiledPolicies(rt: Runtime, orgId: string): CompiledPolicy[] {
  return rt.store.policies.list(orgId).map(compileStoredPolicy);
}

/**
 * The policies' decision on what the activity touches, over the frame's contexts; a batch
 * (`each`) is decided item by item and is allowed only when every item is: an explicit deny of
 * any item denies it, an item no policy allows denies it too, and otherwise it waits for
 * consensus (the secrets export rule).
 */
function evaluateSubjects(rt: Runtime, org: OrganizationRow, contexts: EvaluationContext[], now: number) {
  const policies = compiledPolicies(rt, org.id);
  const decisions = contexts.map((context) => evaluatePolicies(policies, context, { now }));
  const outcomes = decisions.map((d) => d.outcome);
  const outcome = outcomes.find((o) => o === "OUTCOME_DENY_EXPLICIT") ?? outcomes.find((o) => o !== "OUTCOME_ALLOW" && o !== "OUTCOME_REQUIRES_CONSENSUS") ?? outcomes.find((o) => o === "OUTCOME_REQUIRES_CONSENSUS") ?? "OUTCOME_ALLOW";
  const unique = new Map<string, PolicyEvaluationResult>();
  for (const d of decisions) for (const e of d.policyEvaluations) unique.set(`${e.policyId} ${e.outcome}`, { policyId: e.policyId, outcome: e.outcome });
  return { outcome, policyEvaluations: [...unique.values()] };
}

/** The decision on the frame's activity in `org` (the deciding organization) with these votes. */
export function decide(rt: Runtime, frame: ActivityFrame, org: OrganizationRow, votes: StoredVote[]): Decision {
  const { entry, params } = frame;
  const approvers = new Set(votes.filter((v) => v.selection === "VOTE_SELECTION_APPROVED").map((v) => v.userId));
  const rootApprovals = [...approvers].filter((u) => org.rootUserIds.includes(u)).length;
  if (rootApprovals >= org.rootQuorumThreshold) return { outcome: "allow", evaluations: [] };

  if (entry.authorization === "root-quorum") {
    if (rootApprovals > 0) return { outcome: "consensus", evaluations: [] };
    return { outcome: "deny", failure: rootQuorumDenial(entry.name), evaluations: [] };
  }

  const actsOnOwnCredentials = entry.authorization === "own-credential" && approvers.size === 1 && typeof params.userId === "string" && approvers.has(params.userId);
  if (actsOnOwnCredentials) return { outcome: "allow", evaluations: [] };

  const decision = evaluateSubjects(rt, org, frame.decisionContexts(org, votes), frame.now);
  const evaluations = decision.policyEvaluations;
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

/**
 * Imports into a user's own keys only (init_import_* / import_* naming a `userId`): denied by
 * default when they name another user of the organization. A `userId` that names no user is
 * left to the handler, which refuses it as bad input (nothing recorded).
 */
export function defaultDenial(rt: Runtime, org: OrganizationRow, entry: ActivityEntry, params: Record<string, unknown>, proposerId: string): RpcStatus | undefined {
  const isImport = entry.name.startsWith("import_") || entry.name.startsWith("init_import_");
  if (!isImport || typeof params.userId !== "string" || params.userId === proposerId) return undefined;
  if (!isUuid(params.userId) || !rt.store.users.get(org.id, params.userId)) return undefined;
  return importTargetDenial(entry.name, params.userId, proposerId);
}
