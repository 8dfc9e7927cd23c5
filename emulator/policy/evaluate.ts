/**
 * Evaluator for parsed policy expressions.
 *
 * - No short-circuit: every operand of `&&`, `||` and every element visited by
 *   `all`/`any` is evaluated, so an error anywhere makes the whole expression an error.
 * - Typed: comparisons need operands of the same type; `< <= > >=` work on int and
 *   timestamp only; `== !=` also on string, bool and lists. Strings compare case-sensitively.
 * - Every failure is an EvaluationError; nothing else escapes.
 */
import { describe, type Expr } from "./ast.js";
import { cronSpanActive } from "./cron-span.js";
import { EvaluationError, normalize, PolicyTimestamp, typeOf, type Struct, type Value } from "./values.js";

/** Keyword name → context value (plain JS object tree). */
export type EvaluationContext = { readonly [keyword: string]: unknown };

/** Upper bound on visited nodes per evaluation, so nested quantifiers over big lists stay bounded. */
export const MAX_STEPS = 1_000_000;

interface Scope {
  readonly name: string;
  readonly value: unknown;
  readonly parent: Scope | undefined;
}

const hasOwn = (o: object, k: string) => Object.prototype.hasOwnProperty.call(o, k);

class Evaluator {
  private steps = 0;
  constructor(private readonly ctx: EvaluationContext) {}

  bool(e: Expr, scope: Scope | undefined): boolean {
    const v = this.eval(e, scope);
    if (typeof v !== "boolean") throw new EvaluationError(`${describe(e)} is ${typeOf(v)}, expected bool`);
    return v;
  }

  private int(e: Expr, scope: Scope | undefined): bigint {
    const v = this.eval(e, scope);
    if (typeof v !== "bigint") throw new EvaluationError(`${describe(e)} is ${typeOf(v)}, expected int`);
    return v;
  }

  private list(e: Expr, scope: Scope | undefined): readonly unknown[] {
    const v = this.eval(e, scope);
    if (!Array.isArray(v)) throw new EvaluationError(`${describe(e)} is ${typeOf(v)}, expected list`);
    return v;
  }

  private present(raw: unknown, what: () => string): Value {
    const v = normalize(raw, what);
    if (v === undefined) throw new EvaluationError(`MissingField: ${what()}`);
    return v;
  }

  eval(e: Expr, scope: Scope | undefined): Value {
    if (++this.steps > MAX_STEPS) throw new EvaluationError("evaluation step limit exceeded");
    switch (e.k) {
      case "bool":
      case "int":
      case "string":
        return e.value;
      case "timestamp":
        return new PolicyTimestamp(e.nanos);
      case "list":
        return e.items.map((item) => this.eval(item, scope));
      case "keyword": {
        const raw = hasOwn(this.ctx, e.name) ? this.ctx[e.name] : undefined;
        return this.present(raw, () => e.name);
      }
      case "var": {
        for (let s = scope; s; s = s.parent) if (s.name === e.name) return this.present(s.value, () => e.name);
        throw new EvaluationError(`unbound variable ${e.name}`);
      }
      case "field": {
        const obj = this.eval(e.obj, scope);
        // `list.count` (without parentheses) appears in published examples; treat it as count().
        if (Array.isArray(obj) && e.name === "count") return BigInt(obj.length);
        if (typeOf(obj) !== "struct") throw new EvaluationError(`${describe(e.obj)} is ${typeOf(obj)}, has no field ${e.name}`);
        return this.member(obj as Struct, e.name, () => describe(e));
      }
      case "index":
        return this.index(e, scope);
      case "slice": {
        const obj = this.eval(e.obj, scope);
        const from = this.int(e.from, scope);
        const to = this.int(e.to, scope);
        if (typeof obj !== "string" && !Array.isArray(obj)) throw new EvaluationError(`${describe(e.obj)} is ${typeOf(obj)}, cannot be sliced`);
        const len = BigInt(obj.length);
        if (from < 0n || to < from || to > len) throw new EvaluationError(`slice [${from}..${to}] out of range for ${describe(e.obj)} of length ${len}`);
        return obj.slice(Number(from), Number(to));
      }
      case "count": {
        const obj = this.eval(e.obj, scope);
        if (Array.isArray(obj)) return BigInt(obj.length);
        if (typeOf(obj) === "struct") return BigInt(Object.keys(obj as Struct).length);
        throw new EvaluationError(`${describe(e.obj)} is ${typeOf(obj)}, count() needs a list`);
      }
      case "contains": {
        const obj = this.eval(e.obj, scope);
        const arg = this.eval(e.arg, scope);
        return this.member_of(arg, obj, () => describe(e.obj));
      }
      case "in": {
        const left = this.eval(e.left, scope);
        const right = this.eval(e.right, scope);
        return this.member_of(left, right, () => describe(e.right));
      }
      case "lambda":
        return this.lambda(e, scope);
      case "not":
        return !this.bool(e.expr, scope);
      case "and": {
        // Evaluate every operand (no short-circuit), then combine.
        let result = true;
        for (const item of e.items) result = this.bool(item, scope) && result;
        return result;
      }
      case "or": {
        let result = false;
        for (const item of e.items) result = this.bool(item, scope) || result;
        return result;
      }
      case "compare":
        return this.compare(e.op, this.eval(e.left, scope), this.eval(e.right, scope), e);
      case "cronspan": {
        const time = hasOwn(this.ctx, "time") ? this.ctx.time : undefined;
        const now = time && typeof time === "object" && hasOwn(time, "now") ? normalize((time as Struct).now, () => "time.now") : undefined;
        if (!(now instanceof PolicyTimestamp)) throw new EvaluationError("MissingField: time.now");
        return cronSpanActive(e.spec, now.toMillis());
      }
    }
  }

  private member(obj: Struct, key: string, what: () => string): Value {
    const raw = hasOwn(obj, key) ? obj[key] : undefined;
    return this.present(raw, what);
  }

  private index(e: Extract<Expr, { k: "index" }>, scope: Scope | undefined): Value {
    const obj = this.eval(e.obj, scope);
    const idx = this.eval(e.index, scope);
    if (typeof idx === "bigint" && (Array.isArray(obj) || typeof obj === "string")) {
      if (idx < 0n || idx >= BigInt(obj.length)) throw new EvaluationError(`index ${idx} out of range for ${describe(e.obj)} of length ${obj.length}`);
      if (typeof obj === "string") return obj[Number(idx)]!;
      return this.present(obj[Number(idx)], () => describe(e));
    }
    if (typeof idx === "string" && typeOf(obj) === "struct") return this.member(obj as Struct, idx, () => describe(e));
    throw new EvaluationError(`cannot index ${typeOf(obj)} ${describe(e.obj)} with ${typeOf(idx)}`);
  }

  private lambda(e: Extract<Expr, { k: "lambda" }>, scope: Scope | undefined): Value {
    const items = this.list(e.obj, scope);
    const kept: unknown[] = [];
    let all = true;
    let any = false;
    for (const item of items) {
      const ok = this.bool(e.body, { name: e.param, value: item, parent: scope });
      all = all && ok;
      any = any || ok;
      if (ok) kept.push(item);
    }
    if (e.method === "all") return all;
    if (e.method === "any") return any;
    return kept;
  }

  private member_of(needle: Value, haystack: Value, what: () => string): boolean {
    if (typeof haystack === "string") {
      if (typeof needle !== "string") throw new EvaluationError(`cannot look for ${typeOf(needle)} in string ${what()}`);
      return haystack.includes(needle);
    }
    if (!Array.isArray(haystack)) throw new EvaluationError(`${what()} is ${typeOf(haystack)}, expected list or string`);
    let found = false;
    for (const raw of haystack) {
      const item = this.present(raw, () => `element of ${what()}`);
      if (this.equal(needle, item)) found = true;
    }
    return found;
  }

  private equal(a: Value, b: Value): boolean {
    const ta = typeOf(a);
    const tb = typeOf(b);
    if (ta !== tb) throw new EvaluationError(`cannot compare ${ta} with ${tb}`);
    switch (ta) {
      case "timestamp":
        return (a as PolicyTimestamp).nanos === (b as PolicyTimestamp).nanos;
      case "list": {
        const la = a as readonly unknown[];
        const lb = b as readonly unknown[];
        if (la.length !== lb.length) return false;
        let same = true;
        for (let i = 0; i < la.length; i++) {
          const x = this.present(la[i], () => "list element");
          const y = this.present(lb[i], () => "list element");
          same = this.equal(x, y) && same;
        }
        return same;
      }
      case "struct":
        throw new EvaluationError("structs cannot be compared");
      default:
        return a === b;
    }
  }

  private compare(op: string, a: Value, b: Value, e: Expr): boolean {
    if (op === "==") return this.equal(a, b);
    if (op === "!=") return !this.equal(a, b);
    let x: bigint;
    let y: bigint;
    if (typeof a === "bigint" && typeof b === "bigint") {
      x = a;
      y = b;
    } else if (a instanceof PolicyTimestamp && b instanceof PolicyTimestamp) {
      x = a.nanos;
      y = b.nanos;
    } else {
      throw new EvaluationError(`operator ${op} at position ${e.pos} needs two ints or two timestamps, got ${typeOf(a)} and ${typeOf(b)}`);
    }
    switch (op) {
      case "<":
        return x < y;
      case "<=":
        return x <= y;
      case ">":
        return x > y;
      default:
        return x >= y;
    }
  }
}

/**
 * Evaluates a parsed expression against a context. Returns the boolean result or throws
 * EvaluationError; no other exception type escapes.
 */
export function evaluate(ast: Expr, context: EvaluationContext): boolean {
  try {
    return new Evaluator(context).bool(ast, undefined);
  } catch (err) {
    if (err instanceof EvaluationError) throw err;
    // A throwing getter or proxy in the context (or an evaluator bug): keep the cause.
    throw new EvaluationError(`evaluation failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}
