/** `npm test` runs every scenario in scenarios/ against the embedded emulator. */
import { describe, expect, it } from "vitest";
import { join } from "node:path";
import { formatRunSummary, runScenarios } from "../../contracts/harness/index.js";
import { packageRoot } from "../../emulator/core/package-root.js";

describe("scenarios against the embedded emulator", () => {
  it("passes every scenario with every response inside the contract", async () => {
    const report = await runScenarios({ scenarios: [join(packageRoot(), "scenarios")] });
    expect(report.summary.failed, formatRunSummary(report)).toBe(0);
    expect(report.summary.skipped).toBe(0);
    expect(report.ok).toBe(true);
    expect(report.scenarios.length).toBeGreaterThanOrEqual(22);
    // Every step ran and checked a response.
    for (const s of report.scenarios) for (const t of s.steps) expect(t.outcome, `${s.name} > ${t.name}`).toBe("passed");
    // Every invariant was really evaluated (none "unavailable"), by each checker.
    const inv = (name: string) => report.scenarios.find((s) => s.name === name)!.steps.flatMap((t) => t.invariants.map((i) => `${i.check}: ${i.outcome}`));
    expect(inv("wallet-signing")).toEqual(Array(3).fill("signatureVerifies: pass"));
    expect(inv("signing-ethereum-solana")).toEqual([...Array(6).fill("signatureVerifies: pass"), "transactionSignedBy: pass"]);
    expect(inv("export-import")).toEqual(["mnemonicDerives: pass"]);
    expect(report.summary.invariantsUnavailable).toBe(0);
    // The emulator-only Earn flow ran whole on the embedded emulator, its control steps included.
    const earn = report.scenarios.find((s) => s.name === "earn-flow")!;
    expect(earn.steps.filter((t) => t.operation.startsWith("control ")).map((t) => t.operation)).toEqual(["control info", "control clock"]);
  }, 60_000);
});
