/**
 * Counters per database that move whenever a row of a group of tables changes, so that what is
 * read from those tables can be kept until then:
 * - `users`: the rows a user's wire form is read from (the user, their API keys,
 *   authenticators, tags, OAuth providers and MFA policies); views/activity.ts reuses its
 *   renderings of voters.
 * - `webhookRouting`: organizations (parent, legacy webhook feature) and webhook endpoints;
 *   families/webhooks/routing.ts keeps who receives an organization's events.
 * `keptReadings` is the one cache over them.
 * Temporary triggers count every write, whichever code path or foreign-key cascade makes it;
 * they live in the connection's temp schema, so no migration and no state image holds them.
 * A write that is rolled back still moves the counter: a reuse is only ever given up, never
 * wrongly made. Inside a transaction, what the connection reads is committed state until the
 * transaction writes one of the group's tables (there is no other writer), which the count at
 * its start tells (`withChangesAtStart`, used by Store.tx).
 */
import type { Db } from "./db.js";

const GROUPS = {
  users: ["users", "api_keys", "authenticators", "tag_members", "oauth_providers", "mfa_policies"],
  webhookRouting: ["organizations", "webhook_endpoints"],
} as const;

export type TableGroup = keyof typeof GROUPS;
type Counts = Record<TableGroup, number>;

const counters = new WeakMap<Db, Counts>();
/** The counts when the connection's outermost transaction (begun through withChangesAtStart) began. */
const atStart = new WeakMap<Db, Counts>();

export function watchTableChanges(db: Db): void {
  if (counters.has(db)) return;
  const counts: Counts = { users: 0, webhookRouting: 0 };
  for (const [group, tables] of Object.entries(GROUPS) as [TableGroup, readonly string[]][]) {
    const fn = `emulator_${group}_changed`;
    db.function(fn, { deterministic: false }, () => {
      counts[group]++;
      return null;
    });
    for (const table of tables) {
      for (const op of ["INSERT", "UPDATE", "DELETE"]) {
        db.exec(`CREATE TEMP TRIGGER IF NOT EXISTS ${table}_${op.toLowerCase()}_${group}_changed AFTER ${op} ON main.${table} BEGIN SELECT ${fn}(); END`);
      }
    }
  }
  counters.set(db, counts);
}

/** The database's change count for a group (undefined when it is not watched). */
export function tableChanges(db: Db, group: TableGroup): number | undefined {
  return counters.get(db)?.[group];
}

/** Runs `fn` (which opens the outermost transaction) remembering the counts it started at. */
export function withChangesAtStart<T>(db: Db, fn: () => T): T {
  const counts = counters.get(db);
  if (!counts) return fn();
  atStart.set(db, { ...counts });
  try {
    return fn();
  } finally {
    atStart.delete(db);
  }
}

/**
 * Whether the group's rows this connection reads now are committed state: outside a
 * transaction, or inside one begun through withChangesAtStart that has not written any of them yet.
 */
export function rowsCommitted(db: Db, group: TableGroup): boolean {
  if (!db.inTransaction) return true;
  const start = atStart.get(db)?.[group];
  return start !== undefined && start === counters.get(db)?.[group];
}

/** Entries a kept reading holds per database at most (one that fills up starts afresh). */
const MAX_KEPT = 1_000;

/**
 * A cache of what is read from a group's tables, per database and key: a reading is kept until
 * one of the group's tables changes, and only when it was read from committed rows (otherwise
 * it is read every time). `read` may return null (kept too), not undefined.
 */
export function keptReadings<V>(group: TableGroup): (db: Db, key: string, read: () => V) => V {
  const kept = new WeakMap<Db, { changes: number; values: Map<string, V> }>();
  return (db, key, read) => {
    const changes = counters.get(db)?.[group];
    if (changes === undefined || !rowsCommitted(db, group)) return read();
    let k = kept.get(db);
    if (!k || k.changes !== changes || k.values.size >= MAX_KEPT) kept.set(db, (k = { changes, values: new Map() }));
    let value = k.values.get(key);
    if (value === undefined) k.values.set(key, (value = read()));
    return value;
  };
}
