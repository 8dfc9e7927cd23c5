/**
 * The error library code (signing, chains, bundles, wallets) throws for bad input. It knows
 * nothing of HTTP or of request field names: `path` names the offending part relative to what
 * the function was given (one of its arguments by its documented name, e.g. `unsignedTransaction`,
 * or a part of one, e.g. `[2].path`), or is absent when the whole input is at fault.
 * The request boundary (`withField` in errors.ts) roots that path at the request field it
 * passed in and turns the error into the service's wire error.
 */

/** What is wrong: the input is malformed (400), names something that does not exist (404), or fails a credential check (401). */
export type InputErrorKind = "invalid" | "not_found" | "unauthenticated";

export class InputError extends Error {
  readonly path: string | undefined;
  readonly kind: InputErrorKind;
  constructor(message: string, path?: string, kind: InputErrorKind = "invalid") {
    super(message);
    this.name = "InputError";
    this.path = path;
    this.kind = kind;
  }
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
      const moved = new InputError(e.message, joinPath(path, e.path), e.kind);
      moved.stack = e.stack;
      throw moved;
    }
    throw e;
  }
}
