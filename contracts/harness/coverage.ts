/**
 * Which routed operations a scenario set exercises, and which a target answered with
 * 501 / code 12 (routed but not implemented).
 */
import { coordinator, proxy } from "../index.js";
import type { LoadedScenario } from "./format.js";
import { stepOperationLabel } from "./operations.js";
import type { RunReport } from "./types.js";

export type SurfaceCoverage = { total: number; exercised: string[]; notExercised: string[] };
export type Coverage = {
  coordinator: SurfaceCoverage;
  proxy: SurfaceCoverage;
  /** Operations a run saw answered with 501 / code 12. */
  notImplemented: string[];
  /** Operations the target implements, when known (the embedded emulator's tables). */
  implemented?: string[];
};

const label = (kind: string, name: string) => `${kind} ${name}`;

export function computeCoverage(scenarios: LoadedScenario[], runs: RunReport[] = [], implemented?: Set<string>): Coverage {
  const used = new Set<string>();
  for (const s of scenarios)
    for (const step of s.steps) {
      const op = stepOperationLabel(step);
      if (op) used.add(label(op.kind, op.name));
    }
  const surface = (table: typeof coordinator): SurfaceCoverage => {
    const all = Object.values(table).map((o) => label(o.kind, o.name)).sort();
    return { total: all.length, exercised: all.filter((o) => used.has(o)), notExercised: all.filter((o) => !used.has(o)) };
  };
  const notImplemented = new Set<string>();
  for (const r of runs) {
    for (const s of r.scenarios) for (const t of s.steps) if (t.status === 501 || (t.status !== 200 && t.code === 12)) notImplemented.add(t.operation);
  }
  return {
    coordinator: surface(coordinator),
    proxy: surface(proxy),
    notImplemented: [...notImplemented].sort(),
    implemented: implemented ? [...implemented].sort() : undefined,
  };
}

export function formatCoverage(c: Coverage): string {
  const lines: string[] = [];
  for (const [name, s] of [["Coordinator", c.coordinator], ["Auth proxy", c.proxy]] as const) {
    lines.push(`${name}: ${s.exercised.length} of ${s.total} routed operations exercised`);
    for (const o of s.exercised) lines.push(`  + ${o}${c.notImplemented.includes(o) ? "  (answered 501: not implemented)" : ""}`);
  }
  if (c.implemented) {
    const impl = new Set(c.implemented);
    const total = c.coordinator.total + c.proxy.total;
    lines.push("", `Emulator implements ${c.implemented.length} of ${total} routed operations.`);
    const gaps = c.implemented.filter((o) => !c.coordinator.exercised.includes(o) && !c.proxy.exercised.includes(o));
    if (gaps.length) lines.push(`Implemented but not exercised by any scenario (${gaps.length}):`, ...gaps.map((o) => `  - ${o}`));
    const dead = [...c.coordinator.exercised, ...c.proxy.exercised].filter((o) => !impl.has(o));
    if (dead.length) lines.push(`Exercised but not implemented (${dead.length}):`, ...dead.map((o) => `  ! ${o}`));
  } else {
    lines.push("", `Not exercised: ${c.coordinator.notExercised.length + c.proxy.notExercised.length} operations (use --verbose to list)`);
  }
  if (c.notImplemented.length) lines.push("", `Answered 501 / code 12 during the run: ${c.notImplemented.join(", ")}`);
  return lines.join("\n");
}
