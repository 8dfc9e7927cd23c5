/**
 * A digest of everything the emulator has stored: sha256 over every row of every table, in
 * rowid order, one hash per table so a change can be named.
 */
import { createHash } from "node:crypto";
import type { Db } from "../../emulator/core/store/db.js";

export type StateDigest = Record<string, string>;

export function stateDigest(db: Db, exclude: ReadonlySet<string> = new Set()): StateDigest {
  const tables = (db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string; sql: string }[])
    .filter((t) => !exclude.has(t.name));
  const out: StateDigest = {};
  for (const t of tables) {
    const order = /WITHOUT\s+ROWID/i.test(t.sql) ? "1" : "rowid";
    const h = createHash("sha256");
    for (const row of db.prepare(`SELECT * FROM "${t.name}" ORDER BY ${order}`).raw().iterate() as Iterable<unknown[]>) {
      for (const cell of row) h.update(Buffer.isBuffer(cell) ? `b:${cell.toString("hex")}` : `${typeof cell}:${String(cell)}`).update("\u0000");
      h.update("\n");
    }
    out[t.name] = h.digest("hex");
  }
  return out;
}

/**
 * SQLite's count of rows inserted, updated or deleted on this connection since it opened: when
 * it has not moved, nothing was written and the digest need not be recomputed.
 */
export function totalChanges(db: Db): number {
  return (db.prepare("SELECT total_changes() AS n").get() as { n: number }).n;
}

/** The tables whose digest differs. */
export function changedTables(before: StateDigest, after: StateDigest): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => before[n] !== after[n]).sort();
}
