/**
 * A counter per database that moves whenever a row a user's wire form is read from changes
 * (the user, their API keys, authenticators, tags, OAuth providers and MFA policies), so that
 * a rendering of a user can be reused until then (views/activity.ts renders every vote's user).
 * Temporary triggers count every write, whichever code path or foreign-key cascade makes it;
 * they live in the connection's temp schema, so no migration and no state image holds them.
 * A write that is rolled back still moves the counter: a reuse is only ever given up, never
 * wrongly made.
 */
import type { Db } from "./db.js";

const USER_TABLES = ["users", "api_keys", "authenticators", "tag_members", "oauth_providers", "mfa_policies"];
const counters = new WeakMap<Db, { n: number }>();

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
