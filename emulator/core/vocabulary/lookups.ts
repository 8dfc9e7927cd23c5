/**
 * Validators and lookups that handlers, queries and the domain share: each fails with the
 * service's error naming the field, before anything is written.
 */
import { invalidArgument, isTurnkeyError, notFound, documentedError } from "../errors.js";
import { isUuid } from "../ids.js";
import type { Store } from "../store/index.js";
import type { UserRow } from "../store/users.js";
import { quote } from "../input-error.js";

/** The service's message for an activity only a top-level organization may run (turnkeyErrorCode INVALID_ACTIVITY_CALLER). */
export const INVALID_ACTIVITY_CALLER = "This activity cannot be called by sub-organizations";

export function requireUuid(value: string, field: string, what: string): void {
  if (!isUuid(value)) throw invalidArgument(`invalid ${what} UUID: ${quote(value)}`, field);
}

export function requireUser(store: Store, orgId: string, userId: string, field: string): UserRow {
  requireUuid(userId, field, "user");
  const u = store.users.get(orgId, userId);
  if (!u) throw notFound(`user not found: ${userId}`);
  return u;
}

/** A list the request must not leave empty: "<name> must not be empty" at its field. */
export function requireNonEmpty(values: readonly unknown[], field: string): void {
  if (!values.length) throw invalidArgument(`${field.slice(field.lastIndexOf(".") + 1)} must not be empty`, field);
}

export function requireDistinct(values: string[], field: string): void {
  const seen = new Set<string>();
  for (const v of values) {
    if (seen.has(v)) throw invalidArgument(`duplicate value in ${field}: ${v}`, field);
    seen.add(v);
  }
}

/**
 * The export rule of deleting wallets and private keys: the first one never exported refuses
 * the deletion unless the request sets deleteWithoutExport.
 */
export function requireExported(items: { what: string; exported: boolean }[], deleteWithoutExport: boolean | undefined): void {
  const kept = deleteWithoutExport ? undefined : items.find((i) => !i.exported);
  if (kept)
    throw invalidArgument(
      `${kept.what} has not been exported; export it first or set deleteWithoutExport to delete it anyway`,
      "parameters.deleteWithoutExport",
      "WALLET_ACCOUNT_NOT_EXPORTED",
    );
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const E164 = /^\+[1-9]\d{1,14}$/;

export function checkEmail(email: string, field: string): void {
  if (!EMAIL.test(email)) throw documentedError("INVALID_EMAIL_ADDRESS", undefined, field);
}

export function checkPhone(phone: string, field: string): void {
  if (!E164.test(phone)) throw invalidArgument("invalid phone number: expected E.164 format such as +14155550100", field);
}

export function checkName(name: string, field: string): void {
  if (!name.trim()) throw invalidArgument(`${field} must not be empty`, field);
}

/**
 * Runs library code whose errors name request fields relative to `parameters` (e.g. `payload`)
 * and re-roots those field names (`parameters.payload`), sync or async.
 */
export function withFieldPrefix<T>(prefix: string, fn: () => T): T {
  const fix = (e: unknown): never => {
    if (isTurnkeyError(e)) {
      for (const d of e.details) {
        const violations = (d as { fieldViolations?: { field: string }[] }).fieldViolations;
        for (const v of violations ?? []) if (!v.field.startsWith(`${prefix}.`)) v.field = `${prefix}.${v.field}`;
      }
    }
    throw e;
  };
  try {
    const r = fn();
    return (r instanceof Promise ? r.catch(fix) : r) as T;
  } catch (e) {
    return fix(e);
  }
}
