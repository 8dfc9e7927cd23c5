/**
 * The contract harness: run scenario files against the embedded emulator, another
 * emulator by URL or a live deployment, and report every divergence.
 *
 *   const report = await runScenarios({ scenarios: ["scenarios"] });               // embedded
 *   const report = await runScenarios({ target: { url, organizationId, apiPublicKey, apiPrivateKey }, scenarios });
 *   const diff = await compareTargets({ a: "embedded", b: { url, ... }, scenarios });
 */
import { loadScenarios } from "./load.js";
import { runOnTarget } from "./run.js";
import { compareRuns } from "./compare.js";
import type { LoadedScenario } from "./format.js";
import type { CompareReport, RunReport, ScenarioResult, TargetConfig, TargetSpec } from "./types.js";

export type RunOptions = {
  /** Default "embedded". */
  target?: TargetSpec;
  /** Files or directories of scenario files, or scenarios already loaded. */
  scenarios: (string | LoadedScenario)[];
  /** Only scenarios whose name matches. */
  filter?: RegExp;
  /** Overrides every scenario's scope: auto (default), suborg or root. */
  scope?: "auto" | "suborg" | "root";
  /**
   * What `scope: auto` means (default: root on the embedded emulator, suborg on a URL). Unlike
   * `scope`, it leaves scenarios that declare `scope: root` or `suborg` alone.
   */
  autoScope?: "suborg" | "root";
  /** Requests per second (default 4 for URL targets, unpaced for the embedded emulator; 0 = unpaced). */
  requestsPerSecond?: number;
  maxRetries?: number;
  baseDelayMs?: number;
  timeoutMs?: number;
  pollIntervalMs?: number;
  /** Domain of ${randomEmail} (default example.com). */
  emailDomain?: string;
  onScenario?: (r: ScenarioResult, target: string) => void;
};

export const DEFAULT_REQUESTS_PER_SECOND = 4;

function resolveScenarios(list: (string | LoadedScenario)[], filter?: RegExp): LoadedScenario[] {
  const paths = list.filter((s): s is string => typeof s === "string");
  const loaded = [...(paths.length ? loadScenarios(paths) : []), ...list.filter((s): s is LoadedScenario => typeof s !== "string")];
  return filter ? loaded.filter((s) => filter.test(s.name)) : loaded;
}

async function withTarget<T>(spec: TargetSpec, fn: (t: TargetConfig, kind: "embedded" | "url") => Promise<T>): Promise<T> {
  if (spec !== "embedded") return fn(spec, "url");
  const { startEmulator } = await import("../../emulator/index.js");
  // A conformance run checks the embedded emulator's own answers against the contract too.
  const emu = await startEmulator({ port: 0, validateResponses: true });
  try {
    return await fn(
      { url: emu.url, proxyUrl: emu.proxyUrl, proxyConfigId: emu.info.authProxyConfigId ?? undefined, organizationId: emu.info.organizationId, apiPublicKey: emu.info.apiPublicKey!, apiPrivateKey: emu.info.apiPrivateKey!, label: "embedded emulator" },
      "embedded",
    );
  } finally {
    await emu.stop();
  }
}

async function runOne(o: RunOptions, spec: TargetSpec, scenarios: LoadedScenario[], autoScope = o.autoScope): Promise<RunReport> {
  return withTarget(spec, (target, kind) =>
    runOnTarget({
      target,
      kind,
      scenarios,
      scope: o.scope,
      autoScope,
      pacing: {
        requestsPerSecond: o.requestsPerSecond ?? (kind === "embedded" ? 0 : DEFAULT_REQUESTS_PER_SECOND),
        maxRetries: o.maxRetries,
        baseDelayMs: o.baseDelayMs,
        timeoutMs: o.timeoutMs,
      },
      emailDomain: o.emailDomain ?? "example.com",
      pollIntervalMs: o.pollIntervalMs,
      onScenario: o.onScenario && ((r) => o.onScenario!(r, target.label ?? target.url)),
    }),
  );
}

/** Runs every scenario against one target. */
export async function runScenarios(o: RunOptions): Promise<RunReport> {
  return runOne(o, o.target ?? "embedded", resolveScenarios(o.scenarios, o.filter));
}

export type CompareOptions = Omit<RunOptions, "target"> & { a: TargetSpec; b: TargetSpec };

/**
 * Runs every scenario on two targets and reports structural differences. Both sides use
 * the same scope: scenarios with `scope: auto` run in sub-organizations when either side is a
 * URL (unless `scope` or `autoScope` says otherwise); a scenario's own root/suborg is kept.
 */
export async function compareTargets(o: CompareOptions): Promise<CompareReport> {
  const scenarios = resolveScenarios(o.scenarios, o.filter);
  const autoScope = o.autoScope ?? (o.a === "embedded" && o.b === "embedded" ? undefined : "suborg");
  const a = await runOne(o, o.a, scenarios, autoScope);
  const b = await runOne(o, o.b, scenarios, autoScope);
  const differences = compareRuns(a, b);
  for (const s of a.scenarios) {
    const other = b.scenarios.find((x) => x.name === s.name);
    if (other && s.scope.mode !== other.scope.mode) {
      differences.push({ scenario: s.name, step: "(scope)", operation: "", path: "", kind: "step", a: s.scope.fallback ?? s.scope.mode, b: other.scope.fallback ?? other.scope.mode });
    }
  }
  return { ok: differences.length === 0, a, b, differences };
}

export { loadScenarios, loadScenarioFile, parseScenario, scenarioFiles, ScenarioLoadError } from "./load.js";
export { scenarioSchema, scenarioJsonSchema, type Scenario, type Step, type LoadedScenario } from "./format.js";
export { compareRuns, diffShapes, shapeOf } from "./compare.js";
export { computeCoverage, formatCoverage, type Coverage } from "./coverage.js";
export { formatRunSummary, formatCompareSummary, junitXml, reportJson, differenceLine } from "./report.js";
export { registerInvariant, invariantNames, runInvariant, type Invariant, type InvariantOutcome } from "./invariants/index.js";
export type * from "./types.js";
