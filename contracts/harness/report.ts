/** Renders run and compare reports: a readable summary, JSON, JUnit XML. */
import type { CompareReport, Difference, Problem, RunReport, ScenarioResult } from "./types.js";

const problemLine = (p: Problem): string => `${p.kind}${p.path ? ` at ${p.path}` : ""}: ${p.message}`;

function scenarioLine(s: ScenarioResult): string {
  const mark = s.outcome === "passed" ? "PASS" : s.outcome === "failed" ? "FAIL" : "SKIP";
  const where = s.scope.mode === "suborg" ? " [sub-org]" : s.scope.fallback ? " [root org: fallback]" : "";
  const steps = s.steps.length ? ` (${s.steps.filter((t) => t.outcome === "passed").length}/${s.steps.length} steps)` : "";
  const na = s.steps.flatMap((t) => t.invariants).filter((i) => i.outcome === "unavailable").length;
  return `${mark}  ${s.name}${steps}${where}${na ? ` (${na} invariant check(s) not available)` : ""}${s.skipReason ? `: ${s.skipReason}` : ""}  ${s.durationMs} ms`;
}

export function formatRunSummary(r: RunReport): string {
  const lines = [`Target: ${r.target.label} (${r.target.kind})`];
  for (const s of r.scenarios) lines.push(scenarioLine(s));
  const failures = r.scenarios.filter((s) => s.outcome === "failed");
  if (failures.length) lines.push("", "Failures:");
  for (const s of failures) {
    for (const p of s.problems) lines.push(`  ${s.name} (${s.file}): ${problemLine(p)}`);
    s.steps.forEach((t, i) => {
      for (const p of t.problems) lines.push(`  ${s.name} > step ${i + 1} "${t.name}" (${t.operation}): ${problemLine(p)}`);
    });
  }
  const unavailable = r.scenarios.flatMap((s) => s.steps.flatMap((t) => t.invariants.filter((i) => i.outcome === "unavailable").map((i) => `  ${s.name} > ${t.name}: ${i.check}: ${i.message}`)));
  if (unavailable.length) lines.push("", "Invariant checks not available:", ...unavailable);
  if (r.notes.length) lines.push("", ...r.notes.map((n) => `Note: ${n}`));
  const { passed, failed, skipped } = r.summary;
  lines.push("", `${passed} passed, ${failed} failed, ${skipped} skipped; ${r.requests} requests (${r.retries} retried 429s) in ${(r.durationMs / 1000).toFixed(1)} s`);
  return lines.join("\n");
}

const show = (v: unknown): string => (v === undefined ? "(absent)" : typeof v === "string" ? v : JSON.stringify(v));

export function differenceLine(d: Difference): string {
  const what =
    d.kind === "missing" ? `field ${d.path} present in A, missing in B`
    : d.kind === "extra" ? `field ${d.path} missing in A, present in B`
    : d.kind === "type" ? `${d.path}: type ${show(d.a)} vs ${show(d.b)}`
    : d.kind === "enum" ? `${d.path}: enum values ${show(d.a)} vs ${show(d.b)}`
    : d.kind === "value" ? `${d.path}: values ${show(d.a)} vs ${show(d.b)}`
    : d.kind === "status" ? `HTTP status ${show(d.a)} vs ${show(d.b)}`
    : d.kind === "code" ? `error code ${show(d.a)} vs ${show(d.b)}`
    : `${show(d.a)} vs ${show(d.b)}`;
  return `${d.scenario} > ${d.step}${d.operation ? ` (${d.operation})` : ""}: ${what}`;
}

export function formatCompareSummary(c: CompareReport): string {
  const lines = [`A: ${c.a.target.label}`, `B: ${c.b.target.label}`, ""];
  const byScenario = new Map<string, Difference[]>();
  for (const d of c.differences) byScenario.set(d.scenario, [...(byScenario.get(d.scenario) ?? []), d]);
  for (const s of c.a.scenarios) {
    const b = c.b.scenarios.find((x) => x.name === s.name);
    const diffs = byScenario.get(s.name)?.length ?? 0;
    lines.push(`${diffs ? "DIFF" : "SAME"}  ${s.name}  A: ${s.outcome}, B: ${b?.outcome ?? "not run"}${diffs ? `, ${diffs} difference(s)` : ""}`);
  }
  if (c.differences.length) lines.push("", "Differences:", ...c.differences.map((d) => `  ${differenceLine(d)}`));
  for (const [name, r] of [["A", c.a], ["B", c.b]] as const) {
    if (!r.ok) lines.push("", `Run ${name} had failures:`, ...formatRunSummary(r).split("\n").filter((l) => l.startsWith("  ")));
    for (const n of r.notes) lines.push(`Note (${name}): ${n}`);
  }
  lines.push("", c.ok ? "No differences." : `${c.differences.length} difference(s).`);
  return lines.join("\n");
}

/** JSON for --json: responses are left out unless asked for (they can be large). */
export function reportJson(r: RunReport | CompareReport, includeResponses = false): string {
  return JSON.stringify(r, (k, v) => (k === "response" && !includeResponses ? undefined : v), 2);
}

export const xml = (s: string): string => s.replace(/[<>&"']/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;", "'": "&apos;" })[c]!).replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, "");

/** JUnit XML: one testsuite per target, one testcase per scenario; compare differences as a suite of their own. */
export function junitXml(runs: RunReport[], differences?: Difference[]): string {
  const suites: string[] = [];
  for (const r of runs) {
    const cases = r.scenarios.map((s) => {
      const attrs = `name="${xml(s.name)}" classname="${xml(`conformance.${r.target.label}`)}" file="${xml(s.file)}" time="${(s.durationMs / 1000).toFixed(3)}"`;
      if (s.outcome === "skipped") return `    <testcase ${attrs}><skipped message="${xml(s.skipReason ?? "")}"/></testcase>`;
      if (s.outcome === "passed") return `    <testcase ${attrs}/>`;
      const detail = [...s.problems.map(problemLine), ...s.steps.flatMap((t, i) => t.problems.map((p) => `step ${i + 1} "${t.name}" (${t.operation}): ${problemLine(p)}`))];
      return `    <testcase ${attrs}><failure message="${xml(detail[0] ?? "failed")}">${xml(detail.join("\n"))}</failure></testcase>`;
    });
    suites.push(
      `  <testsuite name="${xml(`conformance ${r.target.label}`)}" tests="${r.scenarios.length}" failures="${r.summary.failed}" skipped="${r.summary.skipped}" time="${(r.durationMs / 1000).toFixed(3)}" timestamp="${r.startedAt}">\n${cases.join("\n")}\n  </testsuite>`,
    );
  }
  if (differences && runs.length === 2) {
    const names = runs[0]!.scenarios.map((s) => s.name);
    const cases = names.map((n) => {
      const ds = differences.filter((d) => d.scenario === n);
      const attrs = `name="${xml(n)}" classname="conformance.compare"`;
      return ds.length ? `    <testcase ${attrs}><failure message="${xml(differenceLine(ds[0]!))}">${xml(ds.map(differenceLine).join("\n"))}</failure></testcase>` : `    <testcase ${attrs}/>`;
    });
    const failed = names.filter((n) => differences.some((d) => d.scenario === n)).length;
    suites.push(`  <testsuite name="compare" tests="${names.length}" failures="${failed}">\n${cases.join("\n")}\n  </testsuite>`);
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n${suites.join("\n")}\n</testsuites>\n`;
}
