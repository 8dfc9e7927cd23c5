import type Database from "better-sqlite3";

const caches = new WeakMap<Database.Database, Map<string, Database.Statement>>();

/** A prepared statement, compiled once per database and SQL text (preparing is not free). */
export function prep(db: Database.Database, sql: string): Database.Statement {
  let cache = caches.get(db);
  if (!cache) caches.set(db, (cache = new Map()));
  let stmt = cache.get(sql);
  if (!stmt) cache.set(sql, (stmt = db.prepare(sql)));
  return stmt;
}
