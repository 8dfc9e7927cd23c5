/**
 * The coverage report of a run: what GET /emulator/v1/coverage answers, what `--coverage-out`
 * and the test helpers write (JSON, and a readable summary beside it, as coverage tools print).
 *
 * It lists each operation called (surface, kind, name, path) with its calls and outcomes and
 * the activity versions it was called as, each policy evaluated with its outcomes, and every
 * published operation never called (whether the emulator serves it or answers 501). Reports of
 * several instances (one per test worker) merge into one (`mergeCoverage`).
 */
import { OUTCOMES, type CallCounts, type CoverageCounts, type OutcomeCounts, type PolicyCounts } from "./recorder.js";

export const COVERAGE_FORMAT = "turnkey-emulator-coverage/v1";

/** One published operation: where it is served and whether the emulator runs it (else it answers 501). */
export type PublishedOperation = { surface: "coordinator" | "auth proxy"; kind: "submit" | "query" | "proxy"; name: string; path: string; emulated: boolean };

export type CoveredOperation = PublishedOperation & {
  calls: number;
  outcomes: OutcomeCounts;
  /** Activity types the calls were read as (submit operations), with their own counts. */
  versions: { activityType: string; calls: number; outcomes: OutcomeCounts }[];
};

export type CoveredPolicy = { policyId: string; policyName: string | null; organizationId: string; evaluations: number; outcomes: Record<string, number> };

export type CoverageReport = {
  format: typeof COVERAGE_FORMAT;
  /** When counting started (the earliest, merged). */
  startedAt: string;
  generatedAt: string;
  /** How many emulator instances' counts this report holds. */
  instances: number;
  totals: { published: number; called: number; calls: number; policiesEvaluated: number };
  operations: CoveredOperation[];
  policies: CoveredPolicy[];
  neverCalled: PublishedOperation[];
};

const byPath = <T extends { path: string }>(a: T, b: T) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

function addOutcomes(into: OutcomeCounts, from: OutcomeCounts): OutcomeCounts {
  for (const o of OUTCOMES) if (from[o]) into[o] = (into[o] ?? 0) + from[o];
  return into;
}

/** The report of `counts` over the `published` operations. */
export function coverageReport(counts: CoverageCounts, published: readonly PublishedOperation[], generatedAt = new Date()): CoverageReport {
  const known = new Map(published.map((p) => [p.path, p]));
  const operations = Object.entries(counts.operations)
    .filter(([path]) => known.has(path))
    .map(([path, c]: [string, CallCounts]): CoveredOperation => {
      const op = known.get(path)!;
      const versions = Object.entries(c.versions)
        .map(([activityType, v]) => ({ activityType, calls: v.calls, outcomes: v.outcomes }))
        .sort((a, b) => (a.activityType < b.activityType ? -1 : 1));
      return { ...op, calls: c.calls, outcomes: c.outcomes, versions };
    })
    .sort(byPath);
  const policies = Object.entries(counts.policies)
    .map(([policyId, p]: [string, PolicyCounts]) => ({ policyId, policyName: p.policyName, organizationId: p.organizationId, evaluations: p.evaluations, outcomes: p.outcomes }))
    .sort((a, b) => (a.policyId < b.policyId ? -1 : 1));
  return finish({ startedAt: counts.startedAt, generatedAt: generatedAt.toISOString(), instances: 1, operations, policies }, published);
}

function finish(r: Pick<CoverageReport, "startedAt" | "generatedAt" | "instances" | "operations" | "policies">, published: readonly PublishedOperation[]): CoverageReport {
  const called = new Set(r.operations.map((o) => o.path));
  const neverCalled = published.filter((p) => !called.has(p.path)).sort(byPath);
  return {
    format: COVERAGE_FORMAT,
    ...r,
    totals: { published: published.length, called: called.size, calls: r.operations.reduce((n, o) => n + o.calls, 0), policiesEvaluated: r.policies.length },
    neverCalled,
  };
}

/** One report of several (each instance's, e.g. one per test worker): counts add up; an operation is never called if no report called it. */
export function mergeCoverage(reports: readonly CoverageReport[], generatedAt = new Date()): CoverageReport {
  if (reports.length === 0) throw new Error("mergeCoverage: no reports to merge");
  const ops = new Map<string, CoveredOperation>();
  const policies = new Map<string, CoveredPolicy>();
  for (const r of reports) {
    for (const o of r.operations) {
      const into = ops.get(o.path) ?? { ...o, calls: 0, outcomes: {}, versions: [] };
      into.calls += o.calls;
      addOutcomes(into.outcomes, o.outcomes);
      for (const v of o.versions) {
        const same = into.versions.find((x) => x.activityType === v.activityType);
        if (same) {
          same.calls += v.calls;
          addOutcomes(same.outcomes, v.outcomes);
        } else into.versions.push({ activityType: v.activityType, calls: v.calls, outcomes: addOutcomes({}, v.outcomes) });
      }
      into.versions.sort((a, b) => (a.activityType < b.activityType ? -1 : 1));
      ops.set(o.path, into);
    }
    for (const p of r.policies) {
      const into = policies.get(p.policyId) ?? { ...p, policyName: null, evaluations: 0, outcomes: {} };
      into.policyName ??= p.policyName;
      into.evaluations += p.evaluations;
      for (const [outcome, n] of Object.entries(p.outcomes)) into.outcomes[outcome] = (into.outcomes[outcome] ?? 0) + n;
      policies.set(p.policyId, into);
    }
  }
  // Every report lists the same published operations: the called ones plus those it never called.
  const first = reports[0]!;
  const published = [...first.neverCalled, ...first.operations.map(({ surface, kind, name, path, emulated }) => ({ surface, kind, name, path, emulated }))];
  return finish(
    {
      startedAt: reports.map((r) => r.startedAt).sort()[0]!,
      generatedAt: generatedAt.toISOString(),
      instances: reports.reduce((n, r) => n + r.instances, 0),
      operations: [...ops.values()].sort(byPath),
      policies: [...policies.values()].sort((a, b) => (a.policyId < b.policyId ? -1 : 1)),
    },
    published,
  );
}

const pct = (n: number, of: number) => (of === 0 ? "0.0" : ((100 * n) / of).toFixed(1));

/** `words` joined by ", " in lines of at most `width` characters, each starting with `indent`. */
function wrapList(words: readonly string[], indent: string, width = 100): string[] {
  const lines: string[] = [];
  let line = "";
  for (const [i, w] of words.entries()) {
    const piece = w + (i < words.length - 1 ? "," : "");
    if (line && indent.length + line.length + 1 + piece.length > width) {
      lines.push(indent + line);
      line = piece;
    } else line = line ? `${line} ${piece}` : piece;
  }
  if (line) lines.push(indent + line);
  return lines;
}

/** The readable summary written beside the JSON (`<file>.txt`), as coverage tools print one. */
export function coverageSummary(r: CoverageReport): string {
  const out: string[] = [];
  const { totals } = r;
  out.push(`Turnkey emulator coverage: ${totals.called} of ${totals.published} published operations called (${pct(totals.called, totals.published)}%), ${totals.calls} calls`);
  out.push(`${r.instances} instance${r.instances === 1 ? "" : "s"}, counted from ${r.startedAt} to ${r.generatedAt}`, "");
  const columns = OUTCOMES.filter((o) => r.operations.some((op) => op.outcomes[o]));
  const head = ["calls", ...columns];
  const widths = head.map((h) => Math.max(h.length, 5));
  const row = (cells: string[], name: string) => `  ${cells.map((c, i) => c.padStart(widths[i]!)).join("  ")}  ${name}`;
  out.push("Operations called", row(head, "operation"));
  for (const op of r.operations) {
    out.push(row([String(op.calls), ...columns.map((c) => String(op.outcomes[c] ?? 0))], `${op.kind === "proxy" ? "proxy" : op.kind}/${op.name}`));
    if (op.versions.length > 1 || (op.versions[0] && op.versions[0].calls !== op.calls)) {
      for (const v of op.versions) out.push(row([String(v.calls), ...columns.map((c) => String(v.outcomes[c] ?? 0))], `  ${v.activityType}`));
    } else if (op.versions[0]) out[out.length - 1] += `  (${op.versions[0].activityType})`;
  }
  if (!r.operations.length) out.push("  (none)");
  out.push("", `Policies evaluated: ${r.policies.length}`);
  for (const p of r.policies) {
    const outcomes = Object.entries(p.outcomes)
      .sort()
      .map(([o, n]) => `${o} ${n}`)
      .join(", ");
    out.push(`  ${p.policyName ?? "(deleted policy)"} (${p.policyId}, organization ${p.organizationId}): ${p.evaluations} evaluation${p.evaluations === 1 ? "" : "s"}: ${outcomes}`);
  }
  out.push("", `Never called: ${r.neverCalled.length} published operations`);
  for (const [surface, kind] of [
    ["coordinator", "submit"],
    ["coordinator", "query"],
    ["auth proxy", "proxy"],
  ] as const) {
    const names = r.neverCalled.filter((p) => p.surface === surface && p.kind === kind).map((p) => p.name + (p.emulated ? "" : " (not emulated)"));
    if (!names.length) continue;
    out.push(`  ${surface} ${kind} (${names.length}):`, ...wrapList(names, "    "));
  }
  return `${out.join("\n")}\n`;
}
