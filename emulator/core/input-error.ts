/**
 * The error library code (signing, chains, bundles, wallets) throws for bad input. It knows
 * nothing of HTTP or of request field names: `path` names the offending part relative to what
 * the function was given (one of its arguments by its documented name, e.g. `unsignedTransaction`,
 * or a part of one, e.g. `[2].path`), or is absent when the whole input is at fault.
 * The request boundary (`withField` in errors.ts) roots that path at the request field it
 * passed in and turns the error into the service's wire error.
 */

import { documentedMessage, type DocumentedErrorKey } from "./error-catalogue.js";

/** The most characters of a bad value an error message quotes. */
export const QUOTE_LIMIT = 200;

/**
 * A bad value as error messages quote it: its JSON (`"abc"`, `42`), cut after QUOTE_LIMIT
 * characters and followed by an ellipsis and the value's length, `"aaa…a"…(1048576 characters)`,
 * so that an answer never grows with what it refuses. The one place a quote is bounded.
 */
export function quote(value: unknown): string {
  const text = typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
  if (text.length <= QUOTE_LIMIT) return typeof value === "string" ? JSON.stringify(value) : text;
  const head = text.slice(0, QUOTE_LIMIT);
  return `${typeof value === "string" ? JSON.stringify(head) : head}…(${text.length} characters)`;
}

/** A cut quote (as `quote` writes one) with its head: the description beside a message keeps only the length. */
// The unquoted head starts only where a run of non-space characters starts (the lookbehind): without
// it each position inside a long run would scan to its end, quadratic in a 1 MiB value (minutes).
const CUT_QUOTE = /(?:"(?:[^"\\]|\\.)*"|(?<![^\s"])[^\s"]*)…\((\d+) characters\)/g;

/** `text` with each cut quote reduced to its length: a long value is quoted once, in the message, not again in its details. */
export function withoutQuotedHeads(text: string): string {
  return text.replace(CUT_QUOTE, "…($1 characters)");
}

/** What is wrong: the input is malformed (400), names something that does not exist (404), or fails a credential check (401). */
export type InputErrorKind = "invalid" | "not_found" | "unauthenticated";

export class InputError extends Error {
  readonly path: string | undefined;
  readonly kind: InputErrorKind;
  /** The documented catalogue entry this error is (its code and status come from there). */
  readonly documented: DocumentedErrorKey | undefined;
  constructor(message: string, path?: string, kind: InputErrorKind = "invalid", documented?: DocumentedErrorKey) {
    super(message);
    this.name = "InputError";
    this.path = path;
    this.kind = kind;
    this.documented = documented;
  }
}

/** An InputError that is an entry of the documented catalogue: its message, then `: detail`. */
export function documentedInputError(key: DocumentedErrorKey, detail: string | undefined, path?: string): InputError {
  return new InputError(documentedMessage(key, detail), path, "invalid", key);
}

export function isInputError(e: unknown): e is InputError {
  return e instanceof InputError;
}

/**
 * Joins a root field and a relative path: ("parameters", "payload") → "parameters.payload",
 * ("accounts", "[1].path") → "accounts[1].path"; either side may be absent.
 */
export function joinPath(root: string | undefined, path: string | undefined): string | undefined {
  if (!root) return path || undefined;
  if (!path) return root;
  return path.startsWith("[") ? `${root}${path}` : `${root}.${path}`;
}

/**
 * Runs library code whose InputErrors are relative to a part of the caller's own input and
 * re-roots them under `path` (synchronous code only). For library code calling library code.
 */
export function inputAt<T>(path: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (isInputError(e)) {
      const moved = new InputError(e.message, joinPath(path, e.path), e.kind, e.documented);
      moved.stack = e.stack;
      throw moved;
    }
    throw e;
  }
}
