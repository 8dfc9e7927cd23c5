/** `npm test` runs every scenario in scenarios/ against the embedded emulator. */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { formatRunSummary, runScenarios } from "../../contracts/harness/index.js";
import { packageRoot } from "../../emulator/package-root.js";

describe("scenarios against the embedded emulator", () => {
  it("passes every scenario with every response inside the contract", async () => {
    const report = await runScenarios({ scenarios: [join(packageRoot(), "scenarios")] });
    expect(report.summary.failed, formatRunSummary(report)).toBe(0);
    expect(report.summary.skipped).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.scenarios.length).toBeGreaterThanOrEqual(10);
    // Every step ran and checked a response.
    for (const s of report.scenarios) for (const t of s.steps) expect(t.outcome, `${s.name} > ${t.name}`).toBe("passed");
    // The signing scenario's invariants were really evaluated.
    const inv = report.scenarios.find((s) => s.name === "wallet-signing")!.steps.flatMap((t) => t.invariants);
    expect(inv.map((i) => i.outcome)).toEqual(["pass", "pass", "pass"]);
  });
});
