/**
 * Recursive-descent parser for policy expressions.
 *
 *   or      := and ('||' and)*
 *   and     := compare ('&&' compare)*
 *   compare := unary (('=='|'!='|'<'|'<='|'>'|'>='|'in') unary)?
 *   unary   := '!' unary | '-' INT | postfix
 *   postfix := primary ('.' IDENT ['(' args ')'] | '[' expr ['..' expr] ']')*
 *   primary := INT | STRING | 'true' | 'false' | '[' [expr (',' expr)*] ']' | '(' expr ')'
 *            | 'Timestamp' '(' STRING ')' | 'CronSpan' '(' STRING ',' STRING ',' STRING ')' | IDENT
 *
 * Identifiers must be known keywords or variables bound by `all`/`any`/`filter`.
 * Inputs longer than MAX_LENGTH or nested deeper than MAX_DEPTH are rejected.
 */
import type { CompareOp, Expr, LambdaMethod } from "./ast.js";
import { tokenize, MAX_INT, type Token } from "./lexer.js";
import { syntaxError, type SourceLabel } from "./syntax-error.js";
import { parseCronSpan, parseRfc3339 } from "./time-functions.js";
import { Lru } from "../core/lib/lru.js";

export const MAX_LENGTH = 16_384;
export const MAX_DEPTH = 64;

/** Keywords of `consensus` and `condition` expressions. */
export const CONDITION_KEYWORDS = [
  "activity",
  "approvers",
  "credentials",
  "wallet",
  "wallets",
  "private_key",
  "wallet_account",
  "eth",
  "solana",
  "bitcoin",
  "tron",
  "tempo",
  "secret",
  // velocity controls by identifier (docs/velocity-controls.md)
  "controls",
] as const;
/** Keywords of the `time` expression. */
export const TIME_KEYWORDS = ["time"] as const;

const COMPARE_OPS = new Set(["==", "!=", "<", "<=", ">", ">="]);
const RESERVED = new Set(["true", "false", "in", "Timestamp", "CronSpan"]);

export interface ParseOptions {
  /** Names the policy field in error messages; also selects the keyword set (`time` vs the rest). */
  label?: SourceLabel;
  /** Overrides the keyword set. */
  keywords?: readonly string[];
  /**
   * Reads double-quoted strings too. Only for expressions already stored (a database written
   * before they were refused): new ones take single quotes only, as the docs say.
   */
  stored?: boolean;
}

class Parser {
  private i = 0;
  private depth = 0;
  private readonly scopes: string[] = [];
  private readonly keywords: Set<string>;
  private readonly timeField: boolean;

  constructor(
    private readonly tokens: Token[],
    private readonly label: SourceLabel,
    keywords: readonly string[],
  ) {
    this.keywords = new Set(keywords);
    this.timeField = label === "time";
  }

  private peek(): Token {
    return this.tokens[this.i]!;
  }
  private next(): Token {
    return this.tokens[this.i++]!;
  }
  private isOp(text: string): boolean {
    const t = this.peek();
    return t.kind === "op" && t.text === text;
  }
  private fail(what: string, pos = this.peek().pos): never {
    throw syntaxError(this.label, what, pos);
  }
  private describeToken(t: Token): string {
    if (t.kind === "eof") return "end of expression";
    if (t.kind === "string") return "string literal";
    return `'${t.text}'`;
  }
  private expectOp(text: string): Token {
    if (!this.isOp(text)) this.fail(`expected '${text}' but found ${this.describeToken(this.peek())}`);
    return this.next();
  }
  private enter(pos: number): void {
    if (++this.depth > MAX_DEPTH) this.fail(`expression nested too deeply (max ${MAX_DEPTH})`, pos);
  }
  private leave(): void {
    this.depth--;
  }

  parseTop(): Expr {
    const e = this.parseExpr();
    if (this.peek().kind !== "eof") this.fail(`expected end of expression but found ${this.describeToken(this.peek())}`);
    if (e.k === "int" || e.k === "string" || e.k === "list" || e.k === "timestamp" || e.k === "count" || e.k === "slice") {
      this.fail("expected a boolean expression", e.pos);
    }
    return e;
  }

  private parseExpr(): Expr {
    this.enter(this.peek().pos);
    const e = this.parseOr();
    this.leave();
    return e;
  }

  private parseOr(): Expr {
    const first = this.parseAnd();
    if (!this.isOp("||")) return first;
    const items = [first];
    while (this.isOp("||")) {
      this.next();
      items.push(this.parseAnd());
    }
    return { k: "or", pos: first.pos, items };
  }

  private parseAnd(): Expr {
    const first = this.parseCompare();
    if (!this.isOp("&&")) return first;
    const items = [first];
    while (this.isOp("&&")) {
      this.next();
      items.push(this.parseCompare());
    }
    return { k: "and", pos: first.pos, items };
  }

  private parseCompare(): Expr {
    const left = this.parseUnary();
    const t = this.peek();
    if (t.kind === "op" && COMPARE_OPS.has(t.text)) {
      this.next();
      const right = this.parseUnary();
      return { k: "compare", pos: t.pos, op: t.text as CompareOp, left, right };
    }
    if (t.kind === "ident" && t.text === "in") {
      this.next();
      const right = this.parseUnary();
      return { k: "in", pos: t.pos, left, right };
    }
    return left;
  }

  private parseUnary(): Expr {
    const t = this.peek();
    if (t.kind === "op" && t.text === "!") {
      this.next();
      this.enter(t.pos);
      const expr = this.parseUnary();
      this.leave();
      return { k: "not", pos: t.pos, expr };
    }
    if (t.kind === "op" && t.text === "-") {
      this.next();
      const n = this.peek();
      if (n.kind !== "int") this.fail("expected an integer after '-'");
      this.next();
      return { k: "int", pos: t.pos, value: -n.int! };
    }
    return this.parsePostfix();
  }

  private parsePostfix(): Expr {
    let e = this.parsePrimary();
    let steps = 0;
    for (;;) {
      const t = this.peek();
      if (t.kind !== "op" || (t.text !== "." && t.text !== "[")) break;
      // Each postfix step nests the tree one level deeper, including for expressions inside it.
      this.enter(t.pos);
      steps++;
      this.next();
      if (t.text === ".") {
        const name = this.next();
        if (name.kind !== "ident") this.fail(`expected a field or method name but found ${this.describeToken(name)}`, name.pos);
        if (this.isOp("(")) e = this.parseMethod(e, name);
        else e = { k: "field", pos: name.pos, obj: e, name: name.text };
      } else {
        const index = this.parseExpr();
        if (this.isOp("..")) {
          this.next();
          const to = this.parseExpr();
          this.expectOp("]");
          e = { k: "slice", pos: t.pos, obj: e, from: index, to };
        } else {
          this.expectOp("]");
          e = { k: "index", pos: t.pos, obj: e, index };
        }
      }
    }
    this.depth -= steps;
    return e;
  }

  private parseMethod(obj: Expr, name: Token): Expr {
    this.expectOp("(");
    switch (name.text) {
      case "all":
      case "any":
      case "filter": {
        const param = this.next();
        if (param.kind !== "ident" || RESERVED.has(param.text)) {
          this.fail(`expected a variable name as the first argument of ${name.text}()`, param.pos);
        }
        this.expectOp(",");
        this.scopes.push(param.text);
        const body = this.parseExpr();
        this.scopes.pop();
        this.expectOp(")");
        return { k: "lambda", pos: name.pos, obj, method: name.text as LambdaMethod, param: param.text, body };
      }
      case "contains": {
        const arg = this.parseExpr();
        this.expectOp(")");
        return { k: "contains", pos: name.pos, obj, arg };
      }
      case "count":
        this.expectOp(")");
        return { k: "count", pos: name.pos, obj };
      default:
        return this.fail(`unknown method '${name.text}'`, name.pos);
    }
  }

  private parsePrimary(): Expr {
    const t = this.next();
    switch (t.kind) {
      case "int":
        return { k: "int", pos: t.pos, value: t.int! };
      case "string":
        return { k: "string", pos: t.pos, value: t.text };
      case "eof":
        return this.fail("unexpected end of expression", t.pos);
      case "op":
        if (t.text === "(") {
          const e = this.parseExpr();
          this.expectOp(")");
          return e;
        }
        if (t.text === "[") return this.parseList(t);
        return this.fail(`unexpected ${this.describeToken(t)}`, t.pos);
      case "ident":
        return this.parseIdent(t);
    }
  }

  private parseList(open: Token): Expr {
    const items: Expr[] = [];
    if (!this.isOp("]")) {
      for (;;) {
        items.push(this.parseExpr());
        if (!this.isOp(",")) break;
        this.next();
      }
    }
    this.expectOp("]");
    return { k: "list", pos: open.pos, items };
  }

  private stringArgs(fn: string, n: number): Token[] {
    this.expectOp("(");
    const args: Token[] = [];
    for (let a = 0; a < n; a++) {
      if (a > 0) this.expectOp(",");
      const s = this.next();
      if (s.kind !== "string") this.fail(`${fn} expects a string literal argument`, s.pos);
      args.push(s);
    }
    this.expectOp(")");
    return args;
  }

  private parseIdent(t: Token): Expr {
    switch (t.text) {
      case "true":
        return { k: "bool", pos: t.pos, value: true };
      case "false":
        return { k: "bool", pos: t.pos, value: false };
      case "in":
        return this.fail("unexpected 'in'", t.pos);
      case "Timestamp": {
        const [arg] = this.stringArgs("Timestamp", 1) as [Token];
        const nanos = parseRfc3339(arg.text);
        if (typeof nanos === "string") this.fail(nanos, arg.pos);
        return { k: "timestamp", pos: t.pos, nanos };
      }
      case "CronSpan": {
        if (!this.timeField) this.fail("CronSpan is only allowed in the policy time field", t.pos);
        const args = this.stringArgs("CronSpan", 3);
        const spec = parseCronSpan(args[0]!.text, args[1]!.text, args[2]!.text);
        if ("error" in spec) this.fail(spec.error, args[spec.arg]!.pos);
        return { k: "cronspan", pos: t.pos, spec };
      }
    }
    if (this.scopes.includes(t.text)) return { k: "var", pos: t.pos, name: t.text };
    if (this.keywords.has(t.text)) return { k: "keyword", pos: t.pos, name: t.text };
    if (t.text === "time") this.fail("keyword 'time' is only allowed in the policy time field", t.pos);
    return this.fail(`unknown identifier '${t.text}'`, t.pos);
  }
}

const cache = new Lru<string, Expr>(1_000);

/**
 * Parses one expression. Throws a 400 TurnkeyError (`invalidArgument`) naming the field
 * and the 0-based position on any syntax error. Results are cached by text.
 */
export function parseExpression(src: string, options: ParseOptions = {}): Expr {
  const label = options.label ?? "expression";
  const keywords = options.keywords ?? (label === "time" ? TIME_KEYWORDS : CONDITION_KEYWORDS);
  const key = `${label}\u0000${options.keywords ? keywords.join(",") : ""}\u0000${options.stored ? "stored" : ""}\u0000${src}`;
  const hit = cache.get(key);
  if (hit) return hit;
  if (typeof src !== "string") throw syntaxError(label, "expected a string", 0);
  if (src.length > MAX_LENGTH) throw syntaxError(label, `expression longer than ${MAX_LENGTH} characters`, MAX_LENGTH);
  if (src.trim() === "") throw syntaxError(label, "empty expression", 0);
  const ast = new Parser(tokenize(src, label, !!options.stored), label, keywords).parseTop();
  cache.set(key, ast);
  return ast;
}

export { MAX_INT };
