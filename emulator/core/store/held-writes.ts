/**
 * Rows a module holds back from an in-memory database and writes at a quiet moment (the webhook
 * outbox: families/webhooks/dispatcher.ts). Whatever reads the database whole or lists those rows first
 * has them written (`writeHeld`): a snapshot, an exported state, the deliveries listing.
 */
import type { Db } from "./db.js";

const writers = new WeakMap<Db, Set<(db: Db) => void>>();

/** Registers `write` (called with `db`, it writes what it holds for it, in a transaction of its own; registering it again changes nothing). */
export function holdWrites(db: Db, write: (db: Db) => void): void {
  let set = writers.get(db);
  if (!set) writers.set(db, (set = new Set()));
  set.add(write);
}

/** Writes everything held for `db` now. */
export function writeHeld(db: Db): void {
  const set = writers.get(db);
  if (!set) return;
  for (const write of set) write(db);
}
