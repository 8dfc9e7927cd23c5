/**
 * A replay's report as text (the CLI's output, ending `N exchanges, M differ`), JSON (--json:
 * what a user sends us) and JUnit XML (--junit: one test case per exchange). None holds a
 * secret: the recorded side was redacted when it was recorded, the replayed side before it was
 * compared, and messages appear masked.
 */
import { xml } from "../../contracts/harness/report.js";
import type { Drift } from "./diff.js";
import type { ExchangeReport, ReplayReport } from "./replay.js";

const show = (v: unknown): string => (v === undefined ? "(absent)" : typeof v === "string" ? v : JSON.stringify(v));

export function driftLine(d: Drift): string {
  switch (d.kind) {
    case "missing":
      return `field ${d.path} recorded, absent in the emulator's answer`;
    case "extra":
      return `field ${d.path} absent from the recording, present in the emulator's answer`;
    case "status":
      return `HTTP status ${show(d.recorded)} recorded, ${show(d.replayed)} from the emulator`;
    default:
      return `${d.path}: ${show(d.recorded)} recorded, ${show(d.replayed)} from the emulator`;
  }
}

const exchangeName = (e: ExchangeReport) => `#${e.seq} ${e.operation}`;
const rowsNote = (e: ExchangeReport) => (e.rows.length ? `  [ledger: ${e.rows.join(", ")}]` : "");

export function formatReplaySummary(r: ReplayReport): string {
  const lines = [`Replayed ${r.cassette.exchanges} exchanges recorded ${r.cassette.recordedAt} from ${r.cassette.upstream} on ${r.target === "embedded" ? "the embedded emulator" : r.target}`];
  for (const e of r.exchanges) {
    if (e.outcome === "differ") {
      lines.push(`DIFF  ${exchangeName(e)}${rowsNote(e)}`);
      for (const d of e.differences) lines.push(`        ${driftLine(d)}`);
    } else if (e.outcome === "not replayed") {
      lines.push(`SKIP  ${exchangeName(e)}: ${e.reason}`);
    }
  }
  if (r.notes.length) lines.push("", ...r.notes.map((n) => `Note: ${n}`));
  const confirmed = Object.entries(r.ledger).filter(([, v]) => v.confirmedBy.length && !v.contradictedBy.length);
  const contradicted = Object.entries(r.ledger).filter(([, v]) => v.contradictedBy.length);
  if (confirmed.length) lines.push("", "Ledger rows (docs/fidelity.md) these exchanges confirm:", ...confirmed.map(([id, v]) => `  ${id}  (${v.confirmedBy.map((s) => `#${s}`).join(", ")})`));
  if (contradicted.length) lines.push("", "Ledger rows touched by differing exchanges:", ...contradicted.map(([id, v]) => `  ${id}  (${v.contradictedBy.map((s) => `#${s}`).join(", ")})`));
  lines.push("");
  if (r.summary.notReplayed) lines.push(`${r.summary.notReplayed} exchange(s) not replayed (see SKIP above)`);
  lines.push(`${r.summary.exchanges} exchanges, ${r.summary.differ} differ`);
  return lines.join("\n");
}

export const replayJson = (r: ReplayReport): string => JSON.stringify(r, null, 2) + "\n";

export function replayJunit(r: ReplayReport): string {
  const cases = r.exchanges.map((e) => {
    const attrs = `name="${xml(exchangeName(e))}" classname="replay.${xml(e.surface)}"`;
    if (e.outcome === "not replayed") return `    <testcase ${attrs}><skipped message="${xml(e.reason ?? "")}"/></testcase>`;
    if (e.outcome === "same") return `    <testcase ${attrs}/>`;
    const detail = [...e.differences.map(driftLine), ...(e.rows.length ? [`ledger rows: ${e.rows.join(", ")}`] : [])];
    return `    <testcase ${attrs}><failure message="${xml(detail[0]!)}">${xml(detail.join("\n"))}</failure></testcase>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites>\n  <testsuite name="replay ${xml(r.cassette.upstream)}" tests="${r.summary.exchanges}" failures="${r.summary.differ}" skipped="${r.summary.notReplayed}">\n${cases.join("\n")}\n  </testsuite>\n</testsuites>\n`;
}
