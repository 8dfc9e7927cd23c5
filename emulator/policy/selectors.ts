/**
 * The selectors of the first policy versions (create_policy V1 and V2: `{subject, operator,
 * target}` or `{subject, operator, targets}`) as one condition of the current language: each
 * selector is a comparison of its subject (a path of the language, e.g. `activity.type`) with
 * its targets, and a policy's selectors all hold (`&&`). docs/activity-versions.md.
 */
import { invalidArgument, TurnkeyError } from "../core/errors.js";
import { MAX_INT } from "./lexer.js";
import { parseExpression } from "./parser.js";

export type Selector = { subject?: string; operator?: string; target?: string; targets?: string[] };

/** A target as a literal: digits are an integer (amounts, counts), anything else a string. */
function literal(target: string): string {
  if (/^\d+$/.test(target) && BigInt(target) <= MAX_INT) return target;
  return `'${target.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
}

const list = (targets: string[]) => `[${targets.map(literal).join(", ")}]`;

/** Each operator: whether it compares with one target or a list, and the expression it makes. */
const OPERATORS: Record<string, { many: boolean; expr: (subject: string, targets: string[]) => string }> = {
  OPERATOR_EQUAL: { many: false, expr: (s, [t]) => `${s} == ${literal(t!)}` },
  OPERATOR_NOT_EQUAL: { many: false, expr: (s, [t]) => `${s} != ${literal(t!)}` },
  OPERATOR_MORE_THAN: { many: false, expr: (s, [t]) => `${s} > ${literal(t!)}` },
  OPERATOR_MORE_THAN_OR_EQUAL: { many: false, expr: (s, [t]) => `${s} >= ${literal(t!)}` },
  OPERATOR_LESS_THAN: { many: false, expr: (s, [t]) => `${s} < ${literal(t!)}` },
  OPERATOR_LESS_THAN_OR_EQUAL: { many: false, expr: (s, [t]) => `${s} <= ${literal(t!)}` },
  OPERATOR_CONTAINS: { many: false, expr: (s, [t]) => `${s}.contains(${literal(t!)})` },
  OPERATOR_IN: { many: true, expr: (s, ts) => `${s} in ${list(ts)}` },
  OPERATOR_NOT_IN: { many: true, expr: (s, ts) => `!(${s} in ${list(ts)})` },
  OPERATOR_CONTAINS_ONE: { many: true, expr: (s, ts) => `${s}.any(x, x in ${list(ts)})` },
  OPERATOR_CONTAINS_ALL: { many: true, expr: (s, ts) => `${list(ts)}.all(x, x in ${s})` },
};

/**
 * The condition the selectors at `field` (e.g. `parameters.selectors`) say, undefined for none
 * (a policy without a condition applies to every activity). A selector without a subject or
 * operator, a subject that is not a path of the language, or a number of targets its operator
 * does not take is refused naming the selector's field.
 */
export function selectorsCondition(selectors: readonly Selector[], field: string): string | undefined {
  const parts = selectors.map((sel, i) => {
    const f = `${field}[${i}]`;
    if (!sel.subject) throw invalidArgument("a selector needs a subject", `${f}.subject`);
    if (!sel.operator) throw invalidArgument("a selector needs an operator", `${f}.operator`);
    const op = OPERATORS[sel.operator];
    if (!op) throw invalidArgument(`unknown operator ${sel.operator}`, `${f}.operator`);
    const targets = sel.targets ?? (sel.target !== undefined ? [sel.target] : []);
    const targetField = sel.targets ? `${f}.targets` : `${f}.target`;
    if (!targets.length) throw invalidArgument(`${sel.operator} needs a target`, targetField);
    if (!op.many && targets.length > 1) throw invalidArgument(`${sel.operator} compares with one target, not ${targets.length}`, targetField);
    try {
      const subject = parseExpression(sel.subject, { label: "condition" });
      if (subject.k !== "field" && subject.k !== "keyword" && subject.k !== "index") throw invalidArgument("not a path", "condition");
    } catch (e) {
      if (e instanceof TurnkeyError) throw invalidArgument(`a selector's subject must be a path of the policy language (e.g. activity.type): ${sel.subject}`, `${f}.subject`);
      throw e;
    }
    return op.expr(sel.subject, targets);
  });
  return parts.length ? parts.join(" && ") : undefined;
}
