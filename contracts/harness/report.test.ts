import { describe, expect, it } from "vitest";
import { junitXml, formatRunSummary, reportJson } from "./report.js";
import type { RunReport } from "./types.js";

const report: RunReport = {
  target: { label: "t<&>", kind: "url", url: "http://x" },
  startedAt: "2025-01-01T00:00:00.000Z",
  durationMs: 1200,
  ok: false,
  summary: { passed: 1, failed: 1, skipped: 1, invariantsUnavailable: 1 },
  notes: ["a note"],
  requests: 3,
  retries: 1,
  scenarios: [
    { name: "good", file: "g.yaml", outcome: "passed", scope: { mode: "root" }, steps: [], problems: [], durationMs: 5 },
    {
      name: "bad",
      file: "b.yaml",
      outcome: "failed",
      scope: { mode: "suborg", organizationId: "s", cleanedUp: true },
      problems: [],
      durationMs: 7,
      steps: [
        {
          name: 'step "one"',
          operation: "query whoami",
          outcome: "failed",
          problems: [{ kind: "field", path: "user.name", message: 'expected "<a>", found "b"' }],
          invariants: [{ check: "mnemonicDerives", outcome: "unavailable", message: "no mnemonic" }],
          durationMs: 1,
          response: { status: 200, body: { secret: "x" } },
        },
      ],
    },
    { name: "skip", file: "s.yaml", outcome: "skipped", skipReason: "needs a proxy", scope: { mode: "root" }, steps: [], problems: [], durationMs: 0 },
  ],
};

describe("reports", () => {
  it("summarises one line per scenario and each failure with scenario, step and path", () => {
    const text = formatRunSummary(report);
    expect(text).toMatch(/^PASS {2}good/m);
    expect(text).toMatch(/^FAIL {2}bad \(0\/1 steps\) \[sub-org\] \(1 invariant check\(s\) not available\)/m);
    expect(text).toMatch(/^SKIP {2}skip: needs a proxy/m);
    expect(text).toContain('bad > step 1 "step "one"" (query whoami): field at user.name: expected "<a>", found "b"');
    expect(text).toContain("mnemonicDerives: no mnemonic");
    expect(text).toContain("Note: a note");
  });

  it("writes JUnit XML with escaped failures and skips", () => {
    const xml = junitXml([report]);
    expect(xml).toContain('<testsuite name="conformance t&lt;&amp;&gt;" tests="3" failures="1" skipped="1"');
    expect(xml).toContain('<testcase name="good" classname="conformance.t&lt;&amp;&gt;" file="g.yaml" time="0.005"/>');
    expect(xml).toContain('<failure message="step 1 &quot;step &quot;one&quot;&quot; (query whoami): field at user.name: expected &quot;&lt;a&gt;&quot;, found &quot;b&quot;"');
    expect(xml).toContain('<skipped message="needs a proxy"/>');
  });

  it("leaves response bodies out of JSON unless asked", () => {
    expect(reportJson(report)).not.toContain("secret");
    expect(reportJson(report, true)).toContain("secret");
  });
});
