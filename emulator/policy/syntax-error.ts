import { invalidArgument, type TurnkeyError } from "../core/errors.js";

/** Which policy field an expression came from; names the field in error messages. */
export type SourceLabel = "consensus" | "condition" | "time" | "expression";

/**
 * A caller-facing 400 for a malformed policy expression, e.g.
 * `invalid policy condition: expected ')' at position 17`.
 */
export function syntaxError(label: SourceLabel, what: string, pos: number): TurnkeyError {
  return invalidArgument(`invalid policy ${label}: ${what} at position ${pos}`, label === "expression" ? undefined : label);
}
