/**
 * Policies: compile `{effect, consensus, condition, time}` once (validating all three
 * expressions), then evaluate a set of policies against one request.
 *
 * Per-policy outcome:
 *   time present and false          → OUTCOME_TIME_INACTIVE (skipped)
 *   any expression errors           → OUTCOME_ERROR (the policy neither allows nor denies)
 *   condition false                 → OUTCOME_DENY_IMPLICIT (does not apply)
 *   condition and consensus true    → OUTCOME_ALLOW / OUTCOME_DENY_EXPLICIT by effect
 *   condition true, consensus false → OUTCOME_REQUIRES_CONSENSUS for ALLOW policies
 *                                     (more approvals could satisfy it);
 *                                     OUTCOME_DENY_IMPLICIT for DENY policies (not applied yet)
 * Overall: any DENY_EXPLICIT → DENY_EXPLICIT; else any ALLOW → ALLOW; else any
 * REQUIRES_CONSENSUS → REQUIRES_CONSENSUS; else DENY_IMPLICIT.
 * Root-quorum approval and the implicit exceptions to default deny are the caller's job.
 */
import { invalidArgument } from "../core/errors.js";
import type { Expr } from "./ast.js";
import { evaluate, type EvaluationContext } from "./evaluate.js";
import { parseExpression } from "./parser.js";
import { EvaluationError, PolicyTimestamp } from "./values.js";

export const Outcome = {
  ALLOW: "OUTCOME_ALLOW",
  DENY_EXPLICIT: "OUTCOME_DENY_EXPLICIT",
  DENY_IMPLICIT: "OUTCOME_DENY_IMPLICIT",
  REQUIRES_CONSENSUS: "OUTCOME_REQUIRES_CONSENSUS",
  ERROR: "OUTCOME_ERROR",
  TIME_INACTIVE: "OUTCOME_TIME_INACTIVE",
} as const;
export type Outcome = (typeof Outcome)[keyof typeof Outcome];

export type Effect = "EFFECT_ALLOW" | "EFFECT_DENY";

export interface PolicyInput {
  policyId?: string;
  effect: string;
  consensus?: string | null;
  condition?: string | null;
  time?: string | null;
}

export interface CompiledPolicy {
  readonly policyId: string;
  readonly effect: Effect;
  /** null: no restriction. */
  readonly consensus: Expr | null;
  readonly condition: Expr | null;
  /** null: always active. */
  readonly time: Expr | null;
}

const blank = (s: string | null | undefined): s is null | undefined => s === undefined || s === null || s.trim() === "";

/**
 * Validates and parses a policy. Throws a 400 (`invalidArgument`) whose message names the
 * invalid field and position, e.g. `invalid policy condition: expected ')' at position 17`.
 */
export function compilePolicy(input: PolicyInput, options: { stored?: boolean } = {}): CompiledPolicy {
  const stored = !!options.stored;
  if (input.effect !== "EFFECT_ALLOW" && input.effect !== "EFFECT_DENY") {
    throw invalidArgument(`invalid policy effect: expected EFFECT_ALLOW or EFFECT_DENY`, "effect");
  }
  for (const field of ["consensus", "condition", "time"] as const) {
    const v = input[field];
    if (v !== undefined && v !== null && typeof v !== "string") throw invalidArgument(`invalid policy ${field}: expected a string`, field);
  }
  return {
    policyId: input.policyId ?? "",
    effect: input.effect,
    consensus: blank(input.consensus) ? null : parseExpression(input.consensus, { label: "consensus", stored }),
    condition: blank(input.condition) ? null : parseExpression(input.condition, { label: "condition", stored }),
    time: blank(input.time) ? null : parseExpression(input.time, { label: "time", stored }),
  };
}

export interface PolicyEvaluation {
  policyId: string;
  outcome: Outcome;
  /** Set when outcome is OUTCOME_ERROR. */
  error?: string;
}

export interface PolicyDecision {
  outcome: typeof Outcome.ALLOW | typeof Outcome.DENY_EXPLICIT | typeof Outcome.DENY_IMPLICIT | typeof Outcome.REQUIRES_CONSENSUS;
  policyEvaluations: PolicyEvaluation[];
}

export interface EvaluateOptions {
  /** Trusted server time for the `time` field (`time.now`); one value per request. Defaults to the current time. */
  now?: Date | number;
}

function tryEval(ast: Expr | null, ctx: EvaluationContext): boolean | EvaluationError {
  if (!ast) return true;
  try {
    return evaluate(ast, ctx);
  } catch (e) {
    return e instanceof EvaluationError ? e : new EvaluationError(String(e));
  }
}

/**
 * Whether a policy's time window admits `now` (the policy's own `time` field; get_active_policies
 * reports it): a policy without one is always active; one whose window cannot be evaluated is
 * inactive, with the error.
 */
export function timeWindowStatus(policy: CompiledPolicy, now: Date | number = Date.now()): { active: boolean; error?: string } {
  if (!policy.time) return { active: true };
  const ts = typeof now === "number" ? PolicyTimestamp.fromMillis(now) : PolicyTimestamp.fromDate(now);
  const active = tryEval(policy.time, { time: { now: ts } });
  return active instanceof EvaluationError ? { active: false, error: active.message } : { active };
}

export function evaluatePolicy(policy: CompiledPolicy, ctx: EvaluationContext, options: EvaluateOptions = {}): PolicyEvaluation {
  const { policyId } = policy;
  const window = timeWindowStatus(policy, options.now);
  if (window.error !== undefined) return { policyId, outcome: Outcome.ERROR, error: `time: ${window.error}` };
  if (!window.active) return { policyId, outcome: Outcome.TIME_INACTIVE };
  // No short-circuit: both are evaluated, an error in either is an error.
  const condition = tryEval(policy.condition, ctx);
  const consensus = tryEval(policy.consensus, ctx);
  if (condition instanceof EvaluationError) return { policyId, outcome: Outcome.ERROR, error: `condition: ${condition.message}` };
  if (consensus instanceof EvaluationError) return { policyId, outcome: Outcome.ERROR, error: `consensus: ${consensus.message}` };
  if (!condition) return { policyId, outcome: Outcome.DENY_IMPLICIT };
  if (policy.effect === "EFFECT_ALLOW") return { policyId, outcome: consensus ? Outcome.ALLOW : Outcome.REQUIRES_CONSENSUS };
  return { policyId, outcome: consensus ? Outcome.DENY_EXPLICIT : Outcome.DENY_IMPLICIT };
}

/**
 * Evaluates every policy (all policies are evaluated on every request) and combines the
 * outcomes: explicit deny wins, then allow, then consensus-needed, else implicit deny.
 * Policies that error are reported but neither allow nor deny.
 */
export function evaluatePolicies(policies: readonly CompiledPolicy[], ctx: EvaluationContext, options: EvaluateOptions = {}): PolicyDecision {
  const now = options.now ?? Date.now();
  const policyEvaluations = policies.map((p) => evaluatePolicy(p, ctx, { now }));
  const has = (o: Outcome) => policyEvaluations.some((e) => e.outcome === o);
  const outcome = has(Outcome.DENY_EXPLICIT)
    ? Outcome.DENY_EXPLICIT
    : has(Outcome.ALLOW)
      ? Outcome.ALLOW
      : has(Outcome.REQUIRES_CONSENSUS)
        ? Outcome.REQUIRES_CONSENSUS
        : Outcome.DENY_IMPLICIT;
  return { outcome, policyEvaluations };
}
