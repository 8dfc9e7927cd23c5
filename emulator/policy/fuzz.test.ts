/**
 * Fuzz: random token soups, random grammar-shaped expressions and every truncation of
 * valid expressions. Parsing may only throw a 400 TurnkeyError; evaluating a parsed
 * expression may only throw EvaluationError.
 */
import { describe, expect, it } from "vitest";
import { GrpcCode, TurnkeyError } from "../core/errors.js";
import { evaluate, MAX_STEPS } from "./evaluate.js";
import { parseExpression } from "./parser.js";
import { EvaluationError, PolicyTimestamp } from "./values.js";
import type { SourceLabel } from "./syntax-error.js";

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const TOKENS = [
  "activity", "approvers", "credentials", "wallet", "wallets", "eth", "solana", "tron", "bitcoin", "time", "now", "user", "x",
  "tx", "to", "value", "data", "tags", "id", "params", "contract", "amount", "transfers", "count", "all", "any", "filter", "contains",
  "Timestamp", "CronSpan", "true", "false", "in", "0", "1", "10", "1000000000000000000", "'a'", '"b"', "'0xa9059cbb'",
  "'2026-03-01T00:00:00Z'", "'0 9 * * 1-5'", "'8h'", "'UTC'", "&&", "||", "!", "==", "!=", "<", "<=", ">", ">=", "(", ")", "[", "]",
  ",", ".", "..", "-", "'", "\\", "@", " ",
];

const VALID = [
  "approvers.filter(user, user.tags.contains('ops')).count() >= 2 && activity.action in ['CREATE', 'DELETE']",
  "eth.tx.data[0..10] == '0xa9059cbb' || eth.tx.value < 1000000000000000000",
  "solana.tx.transfers.all(t, t.to == 'abc') && !wallets.any(w, w.id == 'x')",
  "tron.tx.contract[0].amount < 10000000 && tron.tx.contract[0].data[0..8] == 'a9059cbb'",
  "eth.eip_712.message['permitted'].all(p, p['token'] == '0xa0')",
];
const VALID_TIME = ["time.now >= Timestamp('2026-03-01T00:00:00Z') && !CronSpan('0 9 * * 1-5', '8h', 'America/New_York')"];

function grammarExpr(rnd: () => number, depth: number): string {
  const pick = <T,>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)]!;
  const path = () => pick(["activity", "approvers", "wallet", "eth.tx", "solana.tx", "user", "wallets"]) + pick(["", ".id", ".value", ".tags", ".params.user_ids", "[0]", "['k']", "[0..2]", ".count", ".transfers"]);
  const atom = () => pick([path(), "1", "-5", "'s'", "true", "[1, 'a']", "Timestamp('2026-03-01T00:00:00Z')"]);
  if (depth <= 0) return atom();
  switch (Math.floor(rnd() * 8)) {
    case 0:
      return `${grammarExpr(rnd, depth - 1)} ${pick(["&&", "||"])} ${grammarExpr(rnd, depth - 1)}`;
    case 1:
      return `${grammarExpr(rnd, depth - 1)} ${pick(["==", "!=", "<", "<=", ">", ">=", "in"])} ${grammarExpr(rnd, depth - 1)}`;
    case 2:
      return `!(${grammarExpr(rnd, depth - 1)})`;
    case 3:
      return `${path()}.${pick(["all", "any", "filter"])}(user, ${grammarExpr(rnd, depth - 1)})`;
    case 4:
      return `${path()}.contains(${grammarExpr(rnd, depth - 1)})`;
    case 5:
      return `${path()}.count()`;
    case 6:
      return `${grammarExpr(rnd, depth - 1)}[${grammarExpr(rnd, depth - 1)}]`;
    default:
      return atom();
  }
}

const context = {
  activity: { type: "ACTIVITY_TYPE_CREATE_WALLET", kind: "CREATE_WALLET", resource: "WALLET", action: "CREATE", params: { user_ids: ["a", "b"] } },
  approvers: [{ id: "u1", tags: ["ops"], email: "e", alias: "a" }],
  credentials: [],
  wallet: { id: "w", label: "L", imported: false, exported: false },
  wallets: [{ id: "w" }, { id: "v" }],
  eth: { tx: { value: 5n, data: "0xa9059cbb00", to: "0xabc", transfers: [] }, eip_712: { message: { permitted: [{ token: "0xa0" }] } } },
  solana: { tx: { transfers: [{ to: "abc", amount: 1n }] } },
  tron: { tx: { contract: [{ amount: 1n, data: "a9059cbb00" }] } },
  time: { now: PolicyTimestamp.fromDate(new Date("2026-03-06T15:00:00Z")) },
};

type Stats = { parsed: number; evaluated: number; stepLimited: number };

function exercise(src: string, label: SourceLabel, stats: Stats): void {
  let ast;
  try {
    ast = parseExpression(src, { label });
  } catch (e) {
    if (!(e instanceof TurnkeyError) || e.code !== GrpcCode.INVALID_ARGUMENT) throw new Error(`parser threw ${String(e)} for ${JSON.stringify(src)}`, { cause: e });
    expect(e.message).toMatch(/^invalid policy \w+: .* at position \d+$/);
    return;
  }
  stats.parsed++;
  try {
    evaluate(ast, context);
    stats.evaluated++;
  } catch (e) {
    // A `cause` means a foreign exception was wrapped: an evaluator bug, not a policy error.
    if (!(e instanceof EvaluationError) || e.cause !== undefined) throw new Error(`evaluate threw ${String(e)} for ${JSON.stringify(src)}`, { cause: e });
    if (/step limit/.test(e.message)) stats.stepLimited++;
  }
}

describe("fuzz", () => {
  // "Quickly" is measured in the evaluator's own steps, not in wall-clock time: no input here
  // may come near MAX_STEPS (a blow-up would end as "evaluation step limit exceeded").
  it("only ever throws validation or evaluation errors, well within the step limit", () => {
    const rnd = mulberry32(0x5eed);
    const stats: Stats = { parsed: 0, evaluated: 0, stepLimited: 0 };
    const labels: SourceLabel[] = ["condition", "consensus", "time"];
    for (let i = 0; i < 2500; i++) {
      const n = 1 + Math.floor(rnd() * 25);
      const parts: string[] = [];
      for (let j = 0; j < n; j++) parts.push(TOKENS[Math.floor(rnd() * TOKENS.length)]!);
      exercise(parts.join(rnd() < 0.5 ? " " : ""), labels[i % 3]!, stats);
    }
    for (let i = 0; i < 1500; i++) exercise(grammarExpr(rnd, 1 + Math.floor(rnd() * 4)), "condition", stats);
    for (const src of VALID) for (let cut = 0; cut <= src.length; cut++) exercise(src.slice(0, cut), "condition", stats);
    for (const src of VALID_TIME) for (let cut = 0; cut <= src.length; cut++) exercise(src.slice(0, cut), "time", stats);
    // The generators must reach both the parser's error paths and the evaluator.
    expect(stats.parsed).toBeGreaterThan(300);
    expect(stats.evaluated).toBeGreaterThan(50);
    expect(stats.stepLimited, `inputs that ran into MAX_STEPS (${MAX_STEPS})`).toBe(0);
  });
});
