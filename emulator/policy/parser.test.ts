import { describe, expect, it } from "vitest";
import { TurnkeyError } from "../core/errors.js";
import { parseExpression, MAX_DEPTH, MAX_LENGTH } from "./parser.js";

function errorOf(src: string, label: "condition" | "consensus" | "time" = "condition"): TurnkeyError {
  try {
    parseExpression(src, { label });
  } catch (e) {
    expect(e).toBeInstanceOf(TurnkeyError);
    return e as TurnkeyError;
  }
  throw new Error(`expected ${JSON.stringify(src)} to fail`);
}

describe("parseExpression", () => {
  it("parses precedence: && binds tighter than ||, comparisons tighter than &&", () => {
    const ast = parseExpression("activity.type == 'A' || activity.kind == 'B' && wallet.id != 'C'", { label: "condition" });
    expect(ast.k).toBe("or");
    if (ast.k !== "or") return;
    expect(ast.items.map((i) => i.k)).toEqual(["compare", "and"]);
  });

  it("keeps big integers exact", () => {
    const ast = parseExpression("eth.tx.value < 1000000000000000000000000", { label: "condition" });
    expect(ast.k === "compare" && ast.right.k === "int" && ast.right.value).toBe(10n ** 24n);
  });

  it("refuses double-quoted strings (\"only single quotes are supported\") unless reading a stored expression", () => {
    const e = errorOf(`eth.tx.data[0..10] == "0xa9059cbb"`);
    expect(e.message).toBe("invalid policy condition: double-quoted string: only single quotes are supported ('...') at position 22");
    expect(errorOf(`approvers.any(u, u.id == "x")`, "consensus").message).toMatch(/^invalid policy consensus: double-quoted string/);
    expect(() => parseExpression(`eth.tx.data[0..10] == "0xa9059cbb"`, { label: "condition", stored: true })).not.toThrow();
  });

  it("accepts slices, index, lambdas, lists and negation", () => {
    for (const src of [
      "eth.tx.data[0..10] == '0xa9059cbb'",
      "tron.tx.contract[0].data[0..8] == 'a9059cbb'",
      "!(activity.action in ['CREATE', 'DELETE'])",
      "approvers.filter(user, user.tags.contains('x')).count() >= 2",
      "eth.eip_712.message['permitted'].all(p, p['token'] == '0xa0')",
      "solana.tx.transfers.count == 1",
      "approvers.any(u, approvers.all(v, v.id == u.id))",
    ]) {
      expect(() => parseExpression(src, { label: "condition" })).not.toThrow();
    }
  });

  it("reports the 0-based position and what was expected", () => {
    const e = errorOf("approvers.any(user, user.id == 'x'");
    expect(e.message).toBe("invalid policy condition: expected ')' but found end of expression at position 34");
    expect("approvers.any(user, user.id == 'x'".length).toBe(34);
    expect(e.code).toBe(3);
    expect(errorOf("(activity.type == 'x'", "consensus").message).toBe(
      "invalid policy consensus: expected ')' but found end of expression at position 21",
    );
    expect(errorOf("activity.type == == 'x'").message).toMatch(/unexpected '==' at position 17$/);
    expect(errorOf("activity.type = 'x'").message).toMatch(/unexpected character '=' at position 14$/);
    expect(errorOf("activity.type == 'x").message).toMatch(/unterminated string literal at position 17$/);
    expect(errorOf("foo.bar == 1").message).toMatch(/unknown identifier 'foo' at position 0$/);
    expect(errorOf("wallet.id == 'a' wallet").message).toMatch(/expected end of expression but found 'wallet' at position 17$/);
    expect(errorOf("approvers.sum()").message).toMatch(/unknown method 'sum' at position 10$/);
    expect(errorOf("'abc'").message).toMatch(/expected a boolean expression at position 0$/);
    expect(errorOf("").message).toMatch(/empty expression at position 0$/);
  });

  it("validates Timestamp and CronSpan arguments at parse time", () => {
    expect(errorOf("time.now > Timestamp('2026-03-01T00:00:00+01:00')", "time").message).toMatch(/zero UTC offset \(Z or \+00:00\) at position 21$/);
    expect(errorOf("time.now > Timestamp('2026-02-30T00:00:00Z')", "time").message).toMatch(/out-of-range/);
    expect(() => parseExpression("time.now > Timestamp('2026-03-01T00:00:00-00:00')", { label: "time" })).not.toThrow();
    expect(errorOf("CronSpan('*/5 * * * *', '8h', 'UTC')", "time").message).toMatch(/not supported \(use numbers, ranges, lists or \*\) at position 9$/);
    const badDuration = "CronSpan('0 9 * * 1-5', '8d', 'UTC')";
    expect(errorOf(badDuration, "time").message).toMatch(new RegExp(`at most 7 days at position ${badDuration.indexOf("'8d'")}$`));
    const badZone = "CronSpan('0 9 * * 1-5', '8h', 'Mars/Olympus')";
    expect(errorOf(badZone, "time").message).toMatch(new RegExp(`unknown time zone 'Mars/Olympus' at position ${badZone.indexOf("'Mars")}$`));
    expect(errorOf("CronSpan('0 9 * * 7', '8h', 'UTC')", "time").message).toMatch(/out of range 0-6/);
  });

  it("keeps `time` and CronSpan to the time field", () => {
    expect(errorOf("time.now > Timestamp('2026-03-01T00:00:00Z')").message).toMatch(/only allowed in the policy time field at position 0$/);
    expect(errorOf("CronSpan('0 9 * * *', '8h', 'UTC')").message).toMatch(/only allowed in the policy time field/);
    expect(errorOf("activity.type == 'x'", "time").message).toMatch(/unknown identifier 'activity'/);
  });

  it("rejects inputs that are too deep or too long", () => {
    const deep = "(".repeat(MAX_DEPTH + 5) + "true" + ")".repeat(MAX_DEPTH + 5);
    expect(errorOf(deep).message).toMatch(/nested too deeply/);
    const bangs = "!".repeat(10_000) + "true";
    expect(errorOf(bangs).message).toMatch(/nested too deeply/);
    const chain = "activity" + ".a".repeat(200) + " == 'x'";
    expect(errorOf(chain).message).toMatch(/nested too deeply/);
    expect(errorOf("true && ".repeat(MAX_LENGTH / 8 + 1) + "true").message).toMatch(/longer than/);
    // A long flat conjunction is fine (n-ary node, no deep recursion).
    expect(() => parseExpression(Array(500).fill("true").join(" && "), { label: "condition" })).not.toThrow();
  });

  it("rejects integers beyond u256", () => {
    expect(errorOf(`eth.tx.value < ${(1n << 256n).toString()}`).message).toMatch(/out of range at position 15$/);
  });
});

describe("nesting bound", () => {
  it("counts postfix chains toward the depth of expressions nested inside them", () => {
    // Chains of 20 steps whose last index holds another such chain: the tree depth grows
    // by ~20 per level while parentheses grow by one, so the limit must still trip.
    let src = "1";
    for (let level = 0; level < 10; level++) src = `wallets${".a".repeat(19)}[${src}]`;
    expect(() => parseExpression(`${src} == 1`, { label: "condition" })).toThrow(/nested too deeply/);
  });
});
