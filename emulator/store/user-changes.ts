/**
 * A counter per database that moves whenever a row a user's wire form is read from changes
 * (the user, their API keys, authenticators, tags, OAuth providers and MFA policies), so that
 * a rendering of a user can be reused until then (views/activity.ts renders every vote's user).
 * Temporary triggers count every write, whichever code path or foreign-key cascade makes it;
 * they live in the connection's temp schema, so no migration and no state image holds them.
 * A write that is rolled back still moves the counter: a reuse is only ever given up, never
 * wrongly made. Inside a transaction, what the connection reads is committed state until the
 * transaction writes one of these tables (there is no other writer), which the count at its
 * start tells (`withChangesAtStart`, used by Store.tx).
 */
import type { Db } from "./db.js";

const USER_TABLES = ["users", "api_keys", "authenticators", "tag_members", "oauth_providers", "mfa_policies"];
const counters = new WeakMap<Db, { n: number }>();
/** The count when the connection's outermost transaction (begun through withChangesAtStart) began. */
const atStart = new WeakMap<Db, number>();

export function watchUserChanges(db: Db): void {
  if (counters.has(db)) return;
  const counter = { n: 0 };
  db.function("emulator_user_changed", { deterministic: false }, () => {
    counter.n++;
    return null;
  });
  for (const table of USER_TABLES) {
    for (const op of ["INSERT", "UPDATE", "DELETE"]) {
      db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${table}_${op.toLowerCase()}_user_changed AFTER ${op} ON main.${table} BEGIN SELECT emulator_user_changed(); END`);
    }
  }
  counters.set(db, counter);
}

/** The database's user-change count (undefined when it is not watched). */
export function userChanges(db: Db): number | undefined {
  return counters.get(db)?.n;
}

/** Runs `fn` (which opens the outermost transaction) remembering the count it started at. */
export function withChangesAtStart<T>(db: Db, fn: () => T): T {
  const counter = counters.get(db);
  if (!counter) return fn();
  atStart.set(db, counter.n);
  try {
    return fn();
  } finally {
    atStart.delete(db);
  }
}

/**
 * Whether the user rows this connection reads now are committed state: outside a transaction,
 * or inside one begun through withChangesAtStart that has not written any of them yet.
 */
export function userRowsCommitted(db: Db): boolean {
  if (!db.inTransaction) return true;
  const start = atStart.get(db);
  return start !== undefined && start === counters.get(db)?.n;
}
