/**
 * What a run exercised, counted as it happens (`rt.families.coverage.recorder`): each published operation called,
 * by path, with the activity type (version) it was read as and the outcome of each call, and each
 * policy's outcomes as the engine evaluated them. Counting is a few map updates per request: the
 * outcome comes from the answer the pipeline already holds (core/http/request-facts.ts) and the
 * evaluations from the ACTIVITY_UPDATES event that carries them, never from the store. Only the
 * policies' names are read, once per policy, when a report is made (report.ts) or before a reset
 * clears them.
 *
 * The counts outlive a reset (a run's coverage spans every test file that reset the instance);
 * DELETE /emulator/v1/coverage starts them again.
 */
import type { EventBus } from "../../core/events.js";
import type { Store } from "../../core/store/index.js";

/**
 * How one call ended. An activity: its recorded status (completed, failed, consensus needed,
 * rejected, or still pending: created, pending, authenticators needed). Any operation: denied
 * when answered PERMISSION_DENIED (a policy denial, a tenant or origin refusal), unimplemented
 * when answered 501 (not emulated), failed on any other error.
 */
export const OUTCOMES = ["completed", "failed", "denied", "consensus", "rejected", "pending", "unimplemented"] as const;
export type CoverageOutcome = (typeof OUTCOMES)[number];
export type OutcomeCounts = Partial<Record<CoverageOutcome, number>>;

export type CallCounts = { calls: number; outcomes: OutcomeCounts; versions: Record<string, { calls: number; outcomes: OutcomeCounts }> };
export type PolicyCounts = { organizationId: string; policyName: string | null; evaluations: number; outcomes: Record<string, number> };

/** Everything counted, as plain JSON: operations by path, policies by id. */
export type CoverageCounts = { startedAt: string; operations: Record<string, CallCounts>; policies: Record<string, PolicyCounts> };

export class CoverageRecorder {
  private startedAt: number;
  private operations = new Map<string, CallCounts>();
  private policies = new Map<string, PolicyCounts>();

  constructor(private readonly now: () => number = Date.now) {
    this.startedAt = now();
  }

  /** One call of the operation at `path`, read as `version` (an activity type) when it got that far. */
  call(path: string, version: string | undefined, outcome: CoverageOutcome): void {
    let op = this.operations.get(path);
    if (!op) this.operations.set(path, (op = { calls: 0, outcomes: {}, versions: {} }));
    op.calls++;
    op.outcomes[outcome] = (op.outcomes[outcome] ?? 0) + 1;
    if (version === undefined) return;
    const v = (op.versions[version] ??= { calls: 0, outcomes: {} });
    v.calls++;
    v.outcomes[outcome] = (v.outcomes[outcome] ?? 0) + 1;
  }

  /** The evaluations of one decision in `orgId`. */
  evaluated(orgId: string, evaluations: readonly { policyId: string; outcome: string }[]): void {
    for (const e of evaluations) {
      let p = this.policies.get(e.policyId);
      if (!p) this.policies.set(e.policyId, (p = { organizationId: orgId, policyName: null, evaluations: 0, outcomes: {} }));
      p.evaluations++;
      p.outcomes[e.outcome] = (p.outcomes[e.outcome] ?? 0) + 1;
    }
  }

  /** Looks up the name of every policy counted without one (once each), while the store still holds it. */
  learnNames(store: Store): void {
    for (const [id, p] of this.policies) if (p.policyName === null) p.policyName = store.policies.get(p.organizationId, id)?.name ?? null;
  }

  clear(): void {
    this.operations.clear();
    this.policies.clear();
    this.startedAt = this.now();
  }

  counts(): CoverageCounts {
    return structuredClone({ startedAt: new Date(this.startedAt).toISOString(), operations: Object.fromEntries(this.operations), policies: Object.fromEntries(this.policies) });
  }
}

/** Counts the policy evaluations every recorded decision carries. */
export function countEvaluations(events: EventBus, coverage: CoverageRecorder): () => void {
  return events.on((event) => {
    if (event.type === "ACTIVITY_UPDATES" && event.evaluations?.length) coverage.evaluated(event.orgId, event.evaluations);
  });
}
