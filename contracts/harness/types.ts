/** What a run is given and what it reports. */
import type { InvariantOutcome } from "./invariants/index.js";

/** A deployment reached by URL, with the credentials of a root user of its organization. */
export type TargetConfig = {
  url: string;
  organizationId: string;
  apiPublicKey: string;
  apiPrivateKey: string;
  proxyUrl?: string;
  proxyConfigId?: string;
  /**
   * Whether the target is an emulator, which runs emulator-only scenarios (`targets: [emulator]`);
   * default: asked with GET /emulator/v1/clock when a scenario needs to know.
   */
  emulator?: boolean;
  /** Name in reports (default: the URL). */
  label?: string;
};

/** "embedded" starts an emulator in-process (port 0) for the run and stops it after. */
export type TargetSpec = "embedded" | TargetConfig;

export type ProblemKind = "status" | "code" | "activityStatus" | "contract" | "field" | "invariant" | "capture" | "error" | "setup" | "cleanup";
export type Problem = { kind: ProblemKind; path?: string; message: string };

export type InvariantResult = { check: string } & InvariantOutcome;

export type StepResult = {
  name: string;
  /** e.g. submit create_users */
  operation: string;
  outcome: "passed" | "failed" | "skipped";
  status?: number;
  code?: number;
  activityStatus?: string;
  problems: Problem[];
  invariants: InvariantResult[];
  durationMs: number;
  /** The response (kept for comparisons; left out of JSON reports unless asked for). */
  response?: { status: number; body: unknown };
};

export type ScopeInfo = {
  mode: "root" | "suborg";
  organizationId?: string;
  /** Why the scenario ran in the root organization although a sub-organization was asked for. */
  fallback?: string;
  /** The sub-organization was created and deleted again. */
  cleanedUp?: boolean;
};

export type ScenarioResult = {
  name: string;
  file: string;
  outcome: "passed" | "failed" | "skipped";
  skipReason?: string;
  scope: ScopeInfo;
  steps: StepResult[];
  /** Setup and cleanup problems (sub-organization creation/deletion). */
  problems: Problem[];
  durationMs: number;
};

export type RunReport = {
  target: { label: string; kind: "embedded" | "url"; url: string };
  startedAt: string;
  durationMs: number;
  ok: boolean;
  summary: { passed: number; failed: number; skipped: number; invariantsUnavailable: number };
  notes: string[];
  scenarios: ScenarioResult[];
  requests: number;
  retries: number;
};

export type DifferenceKind = "status" | "code" | "missing" | "extra" | "type" | "enum" | "value" | "step";
export type Difference = { scenario: string; step: string; operation: string; path: string; kind: DifferenceKind; a: unknown; b: unknown };

export type CompareReport = { ok: boolean; a: RunReport; b: RunReport; differences: Difference[] };
