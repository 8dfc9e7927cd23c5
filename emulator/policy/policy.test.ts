import { describe, expect, it } from "vitest";
import { TurnkeyError } from "../core/errors.js";
import { compilePolicy, evaluatePolicies, Outcome } from "./policy.js";

const errorOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TurnkeyError);
    return (e as TurnkeyError).message;
  }
  throw new Error("expected an error");
};

const signCtx = (approverIds: string[]) => ({
  activity: { type: "ACTIVITY_TYPE_SIGN_TRANSACTION_V2", kind: "SIGN_TRANSACTION", resource: "PRIVATE_KEY", action: "SIGN", params: {} },
  approvers: approverIds.map((id) => ({ id, tags: id.startsWith("sec") ? ["security"] : [], email: "", alias: "" })),
  credentials: [],
});

describe("compilePolicy", () => {
  it("names the invalid field and the position", () => {
    expect(errorOf(() => compilePolicy({ effect: "EFFECT_ALLOW", consensus: "approvers.any(u, u.id == 'x'", condition: "true" }))).toBe(
      "invalid policy consensus: expected ')' but found end of expression at position 28",
    );
    expect(errorOf(() => compilePolicy({ effect: "EFFECT_ALLOW", condition: "activity.type == " }))).toBe(
      "invalid policy condition: unexpected end of expression at position 17",
    );
    expect(errorOf(() => compilePolicy({ effect: "EFFECT_ALLOW", time: "CronSpan('0 9 * *', '8h', 'UTC')" }))).toMatch(/^invalid policy time: cron expression must have 5 fields/);
    expect(errorOf(() => compilePolicy({ effect: "EFFECT_MAYBE" }))).toMatch(/invalid policy effect/);
  });

  it("treats absent or blank expressions as no restriction", () => {
    const p = compilePolicy({ policyId: "p", effect: "EFFECT_ALLOW", consensus: "", condition: null, time: "  " });
    expect(p).toMatchObject({ consensus: null, condition: null, time: null });
    expect(evaluatePolicies([p], {}).outcome).toBe(Outcome.ALLOW);
  });
});

describe("evaluatePolicies", () => {
  const allowSign = compilePolicy({ policyId: "allow", effect: "EFFECT_ALLOW", consensus: "approvers.count() >= 2", condition: "activity.action == 'SIGN'" });
  const denySec = compilePolicy({ policyId: "deny", effect: "EFFECT_DENY", consensus: "approvers.any(u, u.tags.contains('security'))", condition: "activity.action == 'SIGN'" });

  it("implicitly denies when nothing applies", () => {
    expect(evaluatePolicies([], signCtx(["a"]))).toEqual({ outcome: Outcome.DENY_IMPLICIT, policyEvaluations: [] });
    const other = compilePolicy({ policyId: "o", effect: "EFFECT_ALLOW", condition: "activity.action == 'CREATE'" });
    expect(evaluatePolicies([other], signCtx(["a"])).outcome).toBe(Outcome.DENY_IMPLICIT);
  });

  it("needs consensus until enough approvers, then allows", () => {
    const one = evaluatePolicies([allowSign, denySec], signCtx(["a"]));
    expect(one).toEqual({
      outcome: Outcome.REQUIRES_CONSENSUS,
      policyEvaluations: [
        { policyId: "allow", outcome: Outcome.REQUIRES_CONSENSUS },
        { policyId: "deny", outcome: Outcome.DENY_IMPLICIT },
      ],
    });
    expect(evaluatePolicies([allowSign, denySec], signCtx(["a", "b"])).outcome).toBe(Outcome.ALLOW);
  });

  it("lets an explicit deny win over an allow", () => {
    const r = evaluatePolicies([allowSign, denySec], signCtx(["a", "sec-1"]));
    expect(r.outcome).toBe(Outcome.DENY_EXPLICIT);
    expect(r.policyEvaluations.map((e) => e.outcome)).toEqual([Outcome.ALLOW, Outcome.DENY_EXPLICIT]);
  });

  it("reports erroring policies without letting them allow or deny", () => {
    const bad = compilePolicy({ policyId: "bad", effect: "EFFECT_DENY", condition: "wallet.id == 'x' || private_key.id == 'y'" });
    const r = evaluatePolicies([bad, allowSign], { ...signCtx(["a", "b"]), wallet: { id: "x" } });
    expect(r.outcome).toBe(Outcome.ALLOW);
    expect(r.policyEvaluations[0]).toEqual({ policyId: "bad", outcome: Outcome.ERROR, error: "condition: MissingField: private_key" });
    const badAllow = compilePolicy({ policyId: "bad-allow", effect: "EFFECT_ALLOW", consensus: "approvers.any(u, u.nope == 1)" });
    const r2 = evaluatePolicies([badAllow], signCtx(["a"]));
    expect(r2.outcome).toBe(Outcome.DENY_IMPLICIT);
    expect(r2.policyEvaluations[0]!.outcome).toBe(Outcome.ERROR);
  });

  it("skips time-inactive policies", () => {
    const deny = compilePolicy({ policyId: "t", effect: "EFFECT_DENY", condition: "true", time: "time.now < Timestamp('2026-01-01T00:00:00Z')" });
    const allow = compilePolicy({ policyId: "a", effect: "EFFECT_ALLOW", condition: "true" });
    const late = evaluatePolicies([deny, allow], {}, { now: new Date("2026-06-01T00:00:00Z") });
    expect(late.outcome).toBe(Outcome.ALLOW);
    expect(late.policyEvaluations[0]!.outcome).toBe(Outcome.TIME_INACTIVE);
    expect(evaluatePolicies([deny, allow], {}, { now: Date.parse("2025-06-01T00:00:00Z") }).outcome).toBe(Outcome.DENY_EXPLICIT);
  });
});
