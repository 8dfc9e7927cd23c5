import { describe, expect, it } from "vitest";
import { evaluate } from "./evaluate.js";
import { parseExpression } from "./parser.js";
import { EvaluationError, PolicyTimestamp } from "./values.js";

const ev = (src: string, ctx: Record<string, unknown>, label: "condition" | "time" = "condition") =>
  evaluate(parseExpression(src, { label }), ctx);
const evErr = (src: string, ctx: Record<string, unknown>) => {
  try {
    ev(src, ctx);
  } catch (e) {
    expect(e).toBeInstanceOf(EvaluationError);
    return (e as Error).message;
  }
  throw new Error(`expected ${src} to raise`);
};

const ctx = {
  activity: { type: "ACTIVITY_TYPE_DELETE_USERS", params: { user_ids: ["u1"] } },
  wallet: { id: "w1", imported: false, exported: true, label: "Main" },
  eth: { tx: { value: 10n ** 18n, nonce: 3, data: "0xa9059cbb0000", to: "0xabc" } },
  approvers: [
    { id: "u1", tags: ["ops"], email: "a@x", alias: "A" },
    { id: "u2", tags: ["ops", "sec"], email: "b@x", alias: "B" },
  ],
};

describe("evaluate", () => {
  it("compares big integers exactly and coerces JS integers", () => {
    expect(ev("eth.tx.value == 1000000000000000000", ctx)).toBe(true);
    expect(ev("eth.tx.value < 1000000000000000001", ctx)).toBe(true);
    expect(ev("eth.tx.value < 1000000000000000000", ctx)).toBe(false);
    expect(ev("eth.tx.nonce <= 3 && eth.tx.nonce > -1", ctx)).toBe(true);
  });

  it("compares strings case-sensitively and only with == / !=", () => {
    expect(ev("wallet.label == 'Main'", ctx)).toBe(true);
    expect(ev("wallet.label == 'main'", ctx)).toBe(false);
    expect(ev("wallet.label != 'main'", ctx)).toBe(true);
    expect(evErr("wallet.label < 'z'", ctx)).toMatch(/needs two ints or two timestamps/);
  });

  it("raises on type mismatches instead of coercing", () => {
    expect(evErr("eth.tx.value == '1000000000000000000'", ctx)).toMatch(/cannot compare int with string/);
    expect(evErr("wallet.exported == 1", ctx)).toMatch(/cannot compare bool with int/);
    expect(evErr("wallet.id && true", ctx)).toMatch(/expected bool/);
    expect(evErr("wallet.id.x == 'a'", ctx)).toMatch(/has no field x/);
  });

  it("raises MissingField for absent fields and keywords", () => {
    expect(evErr("activity.params.hash_function == 'X'", ctx)).toBe("MissingField: activity.params.hash_function");
    expect(evErr("private_key.id == 'k'", ctx)).toBe("MissingField: private_key");
    expect(evErr("wallet['constructor'] == 'x'", ctx)).toBe("MissingField: wallet['constructor']");
  });

  it("does not short-circuit: an error on either side is an error", () => {
    expect(evErr("wallet.id == 'w1' || private_key.id == 'y'", ctx)).toMatch(/MissingField: private_key/);
    expect(evErr("false && private_key.id == 'y'", ctx)).toMatch(/MissingField/);
    expect(evErr("approvers.any(u, u.id == 'u1' || u.missing == 1)", ctx)).toMatch(/MissingField: u.missing/);
  });

  it("supports in, contains, count, filter, all, any", () => {
    expect(ev("'u1' in activity.params.user_ids && activity.params.user_ids.count() == 1", ctx)).toBe(true);
    expect(ev("'u9' in activity.params.user_ids", ctx)).toBe(false);
    expect(ev("'a9059cbb' in eth.tx.data", ctx)).toBe(true);
    expect(ev("approvers.filter(user, user.tags.contains('ops')).count() >= 2", ctx)).toBe(true);
    expect(ev("approvers.filter(user, user.tags.contains('sec')).count() >= 2", ctx)).toBe(false);
    expect(ev("approvers.all(u, u.email.contains('@x'))", ctx)).toBe(true);
    expect(ev("approvers.any(u, u.id == 'u3')", ctx)).toBe(false);
    expect(ev("approvers.count == 2", ctx)).toBe(true);
    expect(ev("[].all(x, x == 1) && ![].any(x, x == 1)", ctx)).toBe(true);
    expect(ev("[1, 2] == [1, 2] && ['a'] != ['b']", ctx)).toBe(true);
  });

  it("indexes and slices strings and lists with bounds checks", () => {
    expect(ev("eth.tx.data[0..10] == '0xa9059cbb'", ctx)).toBe(true);
    expect(ev("approvers[1].tags[1] == 'sec'", ctx)).toBe(true);
    expect(ev("approvers[0..1].count() == 1", ctx)).toBe(true);
    expect(evErr("approvers[2].id == 'x'", ctx)).toMatch(/out of range/);
    expect(evErr("eth.tx.data[0..100] == 'x'", ctx)).toMatch(/out of range/);
    expect(evErr("approvers['id'] == 'x'", ctx)).toMatch(/cannot index list/);
  });

  it("compares timestamps", () => {
    const now = { time: { now: PolicyTimestamp.fromDate(new Date("2026-03-15T12:00:00Z")) } };
    expect(ev("time.now >= Timestamp('2026-03-01T00:00:00Z') && time.now < Timestamp('2026-04-01T00:00:00Z')", now, "time")).toBe(true);
    expect(ev("time.now >= Timestamp('2026-04-01T00:00:00.000000001Z')", now, "time")).toBe(false);
    expect(ev("time.now == Timestamp('2026-03-15T12:00:00z')", now, "time")).toBe(true);
  });

  it("only ever throws EvaluationError, even for odd contexts", () => {
    const odd = { wallet: { id: 1.5, label: Symbol("x") as unknown, exported: null } };
    expect(evErr("wallet.id == 1", odd)).toMatch(/not an integer/);
    expect(evErr("wallet.label == 'x'", odd)).toMatch(/unsupported type/);
    expect(evErr("wallet.exported == true", odd)).toMatch(/MissingField/);
    const throwing = { wallet: { get id(): string { throw new RangeError("boom"); } } };
    expect(evErr("wallet.id == 'x'", throwing)).toMatch(/boom/);
    try {
      ev("wallet.id == 'x'", throwing);
    } catch (e) {
      expect((e as EvaluationError).cause).toBeInstanceOf(RangeError);
    }
  });

  it("bounds work with a step budget", () => {
    const big = { wallets: Array.from({ length: 200 }, (_, i) => ({ id: `w${i}` })) };
    expect(evErr("wallets.all(a, wallets.all(b, wallets.all(c, a.id == b.id || b.id != c.id)))", big)).toMatch(/step limit/);
  });
});
