/** Runtime values of the policy language and the evaluation error type. */

/** Raised when a policy cannot be evaluated: a missing field, a type mismatch, an index out of range… */
export class EvaluationError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EvaluationError";
  }
}

/** A point in time, in nanoseconds since the Unix epoch (UTC). */
export class PolicyTimestamp {
  constructor(readonly nanos: bigint) {}
  static fromDate(d: Date): PolicyTimestamp {
    return new PolicyTimestamp(BigInt(d.getTime()) * 1_000_000n);
  }
  static fromMillis(ms: number): PolicyTimestamp {
    return new PolicyTimestamp(BigInt(Math.trunc(ms)) * 1_000_000n);
  }
  toMillis(): number {
    return Number(this.nanos / 1_000_000n);
  }
}

export type Struct = { readonly [k: string]: unknown };
/** A normalized runtime value. Lists and structs hold raw context values, normalized on access. */
export type Value = boolean | bigint | string | PolicyTimestamp | readonly unknown[] | Struct;

export type TypeName = "bool" | "int" | "string" | "timestamp" | "list" | "struct";

export function typeOf(v: Value): TypeName {
  if (typeof v === "boolean") return "bool";
  if (typeof v === "bigint") return "int";
  if (typeof v === "string") return "string";
  if (v instanceof PolicyTimestamp) return "timestamp";
  if (Array.isArray(v)) return "list";
  return "struct";
}

/**
 * Converts a context value to a language value. JS numbers must be integers and become
 * bigint; Dates become timestamps; `null`/`undefined` count as missing (returns
 * undefined). Numeric strings stay strings: context builders emit bigint for integers.
 */
export function normalize(raw: unknown, what: () => string): Value | undefined {
  switch (typeof raw) {
    case "undefined":
      return undefined;
    case "boolean":
    case "bigint":
    case "string":
      return raw;
    case "number":
      if (!Number.isSafeInteger(raw)) throw new EvaluationError(`${what()} is not an integer`);
      return BigInt(raw);
    case "object":
      if (raw === null) return undefined;
      if (raw instanceof PolicyTimestamp || Array.isArray(raw)) return raw as Value;
      if (raw instanceof Date) return PolicyTimestamp.fromDate(raw);
      if (raw instanceof Uint8Array) throw new EvaluationError(`${what()} has an unsupported type`);
      return raw as Struct;
    default:
      throw new EvaluationError(`${what()} has an unsupported type`);
  }
}
