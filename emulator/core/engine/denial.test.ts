import { describe, expect, it } from "vitest";
import { answerAsRecorded, denialError, policyDenial, rootQuorumDenial } from "./denial.js";
import type { ActivityRow } from "../store/activities.js";

const row = (status: ActivityRow["status"], failure: ActivityRow["failure"]): ActivityRow =>
  ({ id: "a1", seq: 1, orgId: "o", type: "ACTIVITY_TYPE_CREATE_WALLET", status, fingerprint: "f", intent: {}, result: {}, failure, votes: [], userId: "u", asksAppProofs: false, createdAt: 0, updatedAt: 0 }) as ActivityRow;

describe("policyDenial", () => {
  it("implicit: says nothing allowed and keeps every outcome", () => {
    const evaluations = [{ policyId: "p1", outcome: "OUTCOME_DENY_IMPLICIT" }, { policyId: "p2", outcome: "OUTCOME_ERROR" }];
    const f = policyDenial(evaluations);
    expect(f.code).toBe(7);
    expect(f.details).toEqual([{ "@type": "type.googleapis.com/errors.v1.PolicyEnginePermissionError", message: "No policies evaluated to outcome: Allow", policyEvaluations: evaluations }]);
  });

  it("explicit: names the denying policies, even beside an ALLOW that matched", () => {
    const f = policyDenial([
      { policyId: "allow", outcome: "OUTCOME_ALLOW" },
      { policyId: "d1", outcome: "OUTCOME_DENY_EXPLICIT" },
      { policyId: "d2", outcome: "OUTCOME_DENY_EXPLICIT" },
    ]);
    expect(f.details[0]!.message).toBe("The following policies denied this action: d1, d2");
    expect(f.message).toBe(policyDenial([]).message);
  });
});

describe("answering a recorded denial", () => {
  it("turns the FAILED row's failure into the 403 error", () => {
    const failure = rootQuorumDenial("update_root_quorum");
    const e = denialError(row("ACTIVITY_STATUS_FAILED", failure));
    expect([e.httpStatus, e.toJSON()]).toEqual([403, failure]);
    expect(() => answerAsRecorded(row("ACTIVITY_STATUS_FAILED", failure))).toThrow(/root quorum/);
  });

  it("leaves every other activity alone", () => {
    const done = row("ACTIVITY_STATUS_COMPLETED", null);
    expect(answerAsRecorded(done)).toBe(done);
    expect(() => denialError(done)).toThrow(/not a recorded denial/);
    const rejected = row("ACTIVITY_STATUS_REJECTED", null);
    expect(answerAsRecorded(rejected)).toBe(rejected);
  });
});
