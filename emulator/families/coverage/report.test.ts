import { describe, expect, it } from "vitest";
import { CoverageRecorder } from "./recorder.js";
import { coverageReport, coverageSummary, mergeCoverage, type PublishedOperation } from "./report.js";
import { outcomeOf } from "./http.js";
import { summaryPath } from "./files.js";

const PUBLISHED: PublishedOperation[] = [
  { surface: "coordinator", kind: "submit", name: "create_wallet", path: "/public/v1/submit/create_wallet", emulated: true },
  { surface: "coordinator", kind: "submit", name: "sign_raw_payload", path: "/public/v1/submit/sign_raw_payload", emulated: true },
  { surface: "coordinator", kind: "query", name: "get_wallets", path: "/public/v1/query/list_wallets", emulated: true },
  { surface: "coordinator", kind: "submit", name: "re_encrypt", path: "/public/v1/submit/re_encrypt", emulated: false },
  { surface: "auth proxy", kind: "proxy", name: "otp_init", path: "/v1/otp_init", emulated: true },
];
const AT = new Date("2030-01-01T00:00:10.000Z");

function recorded(): CoverageRecorder {
  const r = new CoverageRecorder(() => Date.parse("2030-01-01T00:00:00.000Z"));
  r.call("/public/v1/submit/create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", "completed");
  r.call("/public/v1/submit/create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", "denied");
  r.call("/public/v1/submit/sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", "completed");
  r.call("/public/v1/submit/sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD", "consensus");
  r.call("/public/v1/submit/sign_raw_payload", undefined, "failed"); // refused before its type was read
  r.call("/v1/otp_init", undefined, "completed");
  r.call("/not/published", undefined, "failed");
  r.evaluated("org-1", [
    { policyId: "p-allow", outcome: "OUTCOME_ALLOW" },
    { policyId: "p-deny", outcome: "OUTCOME_DENY_EXPLICIT" },
  ]);
  r.evaluated("org-1", [{ policyId: "p-allow", outcome: "OUTCOME_ALLOW" }]);
  return r;
}

describe("the coverage report", () => {
  it("lists each operation called with its versions and outcomes, each policy's outcomes and what was never called", () => {
    const report = coverageReport(recorded().counts(), PUBLISHED, AT);
    expect(report.totals).toEqual({ published: 5, called: 3, calls: 6, policiesEvaluated: 2 });
    expect(report.operations.find((o) => o.name === "sign_raw_payload")).toEqual({
      ...PUBLISHED[1],
      calls: 3,
      outcomes: { completed: 1, consensus: 1, failed: 1 },
      versions: [
        { activityType: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD", calls: 1, outcomes: { consensus: 1 } },
        { activityType: "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", calls: 1, outcomes: { completed: 1 } },
      ],
    });
    expect(report.policies).toEqual([
      { policyId: "p-allow", policyName: null, organizationId: "org-1", evaluations: 2, outcomes: { OUTCOME_ALLOW: 2 } },
      { policyId: "p-deny", policyName: null, organizationId: "org-1", evaluations: 1, outcomes: { OUTCOME_DENY_EXPLICIT: 1 } },
    ]);
    expect(report.neverCalled.map((p) => p.name)).toEqual(["get_wallets", "re_encrypt"]);
  });

  it("reads as a summary, as coverage tools print one", () => {
    const report = coverageReport(recorded().counts(), PUBLISHED, AT);
    report.policies[0]!.policyName = "Allow signing";
    expect(coverageSummary(report).split("\n")).toEqual([
      "Turnkey emulator coverage: 3 of 5 published operations called (60.0%), 6 calls",
      "1 instance, counted from 2030-01-01T00:00:00.000Z to 2030-01-01T00:00:10.000Z",
      "",
      "Operations called",
      "  calls  completed  failed  denied  consensus  operation",
      "      2          1       0       1          0  submit/create_wallet  (ACTIVITY_TYPE_CREATE_WALLET)",
      "      3          1       1       0          1  submit/sign_raw_payload",
      "      1          0       0       0          1    ACTIVITY_TYPE_SIGN_RAW_PAYLOAD",
      "      1          1       0       0          0    ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2",
      "      1          1       0       0          0  proxy/otp_init",
      "",
      "Policies evaluated: 2",
      "  Allow signing (p-allow, organization org-1): 2 evaluations: OUTCOME_ALLOW 2",
      "  (deleted policy) (p-deny, organization org-1): 1 evaluation: OUTCOME_DENY_EXPLICIT 1",
      "",
      "Never called: 2 published operations",
      "  coordinator submit (1):",
      "    re_encrypt (not emulated)",
      "  coordinator query (1):",
      "    get_wallets",
      "",
    ]);
  });

  it("merges instances: counts add up, and only what no instance called is never called", () => {
    const a = coverageReport(recorded().counts(), PUBLISHED, AT);
    const other = new CoverageRecorder(() => Date.parse("2029-12-31T23:59:59.000Z"));
    other.call("/public/v1/query/list_wallets", undefined, "completed");
    other.call("/public/v1/submit/create_wallet", "ACTIVITY_TYPE_CREATE_WALLET", "completed");
    other.evaluated("org-2", [{ policyId: "p-deny", outcome: "OUTCOME_ALLOW" }]);
    const b = coverageReport(other.counts(), PUBLISHED, AT);
    b.policies[0]!.policyName = "Deny or allow";
    const merged = mergeCoverage([a, b], AT);
    expect(merged.instances).toBe(2);
    expect(merged.startedAt).toBe("2029-12-31T23:59:59.000Z");
    expect(merged.totals).toEqual({ published: 5, called: 4, calls: 8, policiesEvaluated: 2 });
    expect(merged.operations.find((o) => o.name === "create_wallet")).toMatchObject({ calls: 3, outcomes: { completed: 2, denied: 1 }, versions: [{ activityType: "ACTIVITY_TYPE_CREATE_WALLET", calls: 3, outcomes: { completed: 2, denied: 1 } }] });
    expect(merged.policies.find((p) => p.policyId === "p-deny")).toMatchObject({ policyName: "Deny or allow", evaluations: 2, outcomes: { OUTCOME_DENY_EXPLICIT: 1, OUTCOME_ALLOW: 1 } });
    expect(merged.neverCalled.map((p) => `${p.name} ${p.emulated}`)).toEqual(["re_encrypt false"]);
    expect(mergeCoverage([a], AT)).toEqual(a);
  });

  it("clears, and names outcomes from the answer", () => {
    const r = recorded();
    r.clear();
    expect(r.counts().operations).toEqual({});
    expect(outcomeOf("submit", 200, { activity: { status: "ACTIVITY_STATUS_COMPLETED" } })).toBe("completed");
    expect(outcomeOf("submit", 200, { activity: { status: "ACTIVITY_STATUS_CONSENSUS_NEEDED" } })).toBe("consensus");
    expect(outcomeOf("submit", 200, { activity: { status: "ACTIVITY_STATUS_AUTHENTICATORS_NEEDED" } })).toBe("pending");
    expect(outcomeOf("submit", 200, { activity: { status: "ACTIVITY_STATUS_FAILED" } })).toBe("failed");
    expect(outcomeOf("submit", 403, { code: 7 })).toBe("denied");
    expect(outcomeOf("query", 400, { code: 3 })).toBe("failed");
    expect(outcomeOf("query", 501, { code: 12 })).toBe("unimplemented");
    expect(outcomeOf("proxy", 0, undefined)).toBe("failed");
    expect(outcomeOf("proxy", 200, {})).toBe("completed");
    expect(summaryPath("out/coverage.json")).toBe("out/coverage.txt");
    expect(summaryPath("coverage")).toBe("coverage.txt");
  });
});
