/**
 * Work to do once the transaction that asked for it has committed, and never if it rolls back:
 * `afterCommit(db, fn)` inside a transaction run by `inTransaction` (store/db.ts: Store.tx and
 * every other transaction of the emulator's state) keeps `fn` until the outermost one has
 * committed. A nested transaction (a savepoint) that rolls back drops what was asked inside
 * it, even when the outer one commits.
 *
 * Inside a transaction opened some other way (a bare `db.transaction`: migrations, sealing),
 * when it ends is unknown here: `afterCommit` then declines (returns false) and the caller
 * does its work at once.
 *
 * A hook that throws is logged and skipped: the transaction has committed by then, and the
 * other hooks still run.
 */
import type Database from "better-sqlite3";

/** A connection (store/db.ts names it `Db`; this module sits below it). */
type Db = Database.Database;

/** Per database, one list of waiting work per open transaction level, outermost first. */
const levels = new WeakMap<Db, (() => void)[][]>();

/** Runs one transaction level: `run` opens the transaction (or savepoint) and returns once it has committed. */
export function withCommitHooks<T>(db: Db, run: () => T): T {
  let stack = levels.get(db);
  // Inside a transaction begun elsewhere: nothing is kept (afterCommit declines).
  if (!stack?.length && db.inTransaction) return run();
  if (!stack) levels.set(db, (stack = []));
  const mine: (() => void)[] = [];
  stack.push(mine);
  let result: T;
  try {
    result = run();
  } finally {
    stack.pop();
  }
  // Committed (a savepoint: released into the transaction around it).
  const outer = stack.at(-1);
  if (outer) outer.push(...mine);
  else for (const fn of mine) runHook(fn);
  return result;
}

function runHook(fn: () => void): void {
  try {
    fn();
  } catch (e) {
    console.error(`work after a commit failed: ${(e as Error).message}`);
  }
}

/** Runs `fn` once the current transaction has committed (now, outside any transaction); false if it cannot tell when that is. */
export function afterCommit(db: Db, fn: () => void): boolean {
  const level = levels.get(db)?.at(-1);
  if (level) {
    level.push(fn);
    return true;
  }
  if (db.inTransaction) return false;
  fn();
  return true;
}
