/**
 * How many row changes of a connection are in its database. SQLite's total_changes() counts
 * every row a statement inserted, updated or deleted, also those a rollback then undid; those
 * are taken off here: a transaction run by `inTransaction` (store/db.ts) that rolls back, and
 * work that puts back what it wrote (`uncounted`: the sealing key written into an image for
 * one serialize), leave the count where it was. The version the UI follows
 * (GET /emulator/v1/changes) is built on it, so it moves on committed writes only.
 */
import type Database from "better-sqlite3";
import { prep } from "./statements.js";

/** A connection (store/db.ts names it `Db`; this module sits below it). */
type Db = Database.Database;

/** Per connection, the changes total_changes() counts that are not in the database. */
const undone = new WeakMap<Db, number>();

/** The connection's row changes that are in its database (committed, or in its open transaction). */
export function committedChanges(db: Db): number {
  return (prep(db, "SELECT total_changes() AS n").get() as { n: number }).n - (undone.get(db) ?? 0);
}

function run<T>(db: Db, fn: () => T, keep: boolean): T {
  const before = committedChanges(db);
  // Net of what nested runs already took off.
  const takeOff = () => undone.set(db, (undone.get(db) ?? 0) + committedChanges(db) - before);
  let result: T;
  try {
    result = fn();
  } catch (e) {
    takeOff();
    throw e;
  }
  if (!keep) takeOff();
  return result;
}

/** Runs `fn`, which opens a transaction: its changes count only when it returns (committed), not when it throws (rolled back). */
export function countedIfCommitted<T>(db: Db, fn: () => T): T {
  return run(db, fn, true);
}

/** Runs `fn`, whose changes never count: it puts back whatever it writes. */
export function uncounted<T>(db: Db, fn: () => T): T {
  return run(db, fn, false);
}
