/** Syntax tree of a parsed policy expression. Nodes are immutable and may be shared. */
import type { CronSpanSpec } from "./cron-span.js";

export type CompareOp = "==" | "!=" | "<" | "<=" | ">" | ">=";
export type LambdaMethod = "all" | "any" | "filter";

export type Expr =
  | { k: "bool"; pos: number; value: boolean }
  | { k: "int"; pos: number; value: bigint }
  | { k: "string"; pos: number; value: string }
  | { k: "list"; pos: number; items: Expr[] }
  /** A top-level keyword such as `activity` or `eth`. */
  | { k: "keyword"; pos: number; name: string }
  /** A variable bound by `all`/`any`/`filter`. */
  | { k: "var"; pos: number; name: string }
  | { k: "field"; pos: number; obj: Expr; name: string }
  | { k: "index"; pos: number; obj: Expr; index: Expr }
  | { k: "slice"; pos: number; obj: Expr; from: Expr; to: Expr }
  | { k: "lambda"; pos: number; obj: Expr; method: LambdaMethod; param: string; body: Expr }
  | { k: "contains"; pos: number; obj: Expr; arg: Expr }
  | { k: "count"; pos: number; obj: Expr }
  | { k: "not"; pos: number; expr: Expr }
  | { k: "and"; pos: number; items: Expr[] }
  | { k: "or"; pos: number; items: Expr[] }
  | { k: "compare"; pos: number; op: CompareOp; left: Expr; right: Expr }
  | { k: "in"; pos: number; left: Expr; right: Expr }
  /** `Timestamp('…')`, resolved at parse time to nanoseconds since the Unix epoch. */
  | { k: "timestamp"; pos: number; nanos: bigint }
  /** `CronSpan(cron, duration, tz)`, validated at parse time. */
  | { k: "cronspan"; pos: number; spec: CronSpanSpec };

/** A short, human-readable rendering of an access path, for error messages. */
export function describe(e: Expr): string {
  switch (e.k) {
    case "keyword":
    case "var":
      return e.name;
    case "field":
      return `${describe(e.obj)}.${e.name}`;
    case "index":
      return `${describe(e.obj)}[${e.index.k === "string" ? `'${e.index.value}'` : e.index.k === "int" ? e.index.value : "…"}]`;
    case "slice":
      return `${describe(e.obj)}[..]`;
    case "count":
      return `${describe(e.obj)}.count()`;
    case "lambda":
      return `${describe(e.obj)}.${e.method}(…)`;
    case "string":
      return `'${e.value}'`;
    case "int":
      return String(e.value);
    case "bool":
      return String(e.value);
    default:
      return `expression at position ${e.pos}`;
  }
}
