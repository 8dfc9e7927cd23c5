/** Runs a check on one request field; an InputError it throws becomes a 400 naming the field, its message prefixed by the field's name. */
import { invalidArgument } from "../../core/errors.js";
import { isInputError } from "../../core/input-error.js";

export function checkField<T>(field: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    if (isInputError(e)) throw invalidArgument(`${field.replace(/^parameters\./, "")} ${e.message}`, field);
    throw e;
  }
}
