import Database from "better-sqlite3";
import { MIGRATIONS } from "./schema.js";
import { READ_INDEXES } from "./indexes.js";

export type Db = Database.Database;

let emptyImage: Buffer | undefined;

/**
 * Pages of 16 KiB rather than SQLite's 4 KiB for in-memory databases: a signing activity's row
 * is ~1.4 kB, of which a 4 KiB page holds two (~30% of it unused), a 16 KiB page eleven.
 * Measured with 100k such activities: RSS +252 MB with 4 KiB pages, +189 MB with 16 KiB.
 * The price is at the small end: an empty migrated database is 2.2 MB with 16 KiB pages (0.6 MB
 * with 4 KiB), which every instance, reset, in-memory snapshot and state export carries.
 */
const MEMORY_PAGE_SIZE = 16_384;
const MEMORY_CACHE_KIB = 2_048;

/**
 * Opens (and migrates) the emulator's database: in memory by default, or a file kept in
 * WAL mode with synchronous=FULL, so that every acknowledged write survives a restart.
 *
 * In memory, the database is opened from an empty image (sqlite3_deserialize, SQLite's memdb):
 * its pages live in one buffer that grows by doubling, so closing it gives the memory back to
 * the system at once, where a plain `:memory:` database's pages are thousands of small heap
 * blocks that the allocator keeps after they are freed (measured: closing a 200 MB `:memory:`
 * database left ~90 MB resident, this one ~0). SQLite caps such a database at 1 GiB (about
 * 600k signing activities); a larger state needs `--db FILE` (a full database is answered with
 * RESOURCE_EXHAUSTED: http/errors.ts).
 */
export function openDb(file = ":memory:"): Db {
  if (file === ":memory:") {
    // The schema is in the image: migrating it again would cost every instance and every reset ~10 ms.
    const db = new Database((emptyImage ??= migratedEmptyImage()));
    useMemorySettings(db);
    return db;
  }
  const db = new Database(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = FULL");
  db.pragma("foreign_keys = ON");
  migrate(db);
  return db;
}

/** The per-connection settings of an in-memory database (a fresh one, or a state image loaded into memory). */
export function useMemorySettings(db: Db): void {
  // Reading a page of an in-memory database is a copy from its buffer: a small cache of them does.
  db.pragma(`cache_size = -${MEMORY_CACHE_KIB}`);
  db.pragma("foreign_keys = ON");
}

/** An empty database with 16 KiB pages, migrated and indexed, serialized: what every in-memory database starts from. */
function migratedEmptyImage(): Buffer {
  const empty = new Database(":memory:");
  try {
    empty.pragma(`page_size = ${MEMORY_PAGE_SIZE}`);
    empty.exec("VACUUM"); // gives the empty database its first page, of that size
    migrate(empty);
    return empty.serialize();
  } finally {
    empty.close();
  }
}

/**
 * Brings a database to this emulator's schema: the migrations it lacks, all in one transaction
 * (a new database takes every one: one commit, not one each), then the read indexes, which
 * every database gains when opened (store/indexes.ts): a file, the empty image, a loaded state.
 */
export function migrate(db: Db): void {
  const applied = db.pragma("user_version", { simple: true }) as number;
  if (applied > MIGRATIONS.length) {
    throw new Error(
      `database schema version ${applied} is newer than this emulator understands (${MIGRATIONS.length}); upgrade the emulator`,
    );
  }
  if (applied < MIGRATIONS.length) {
    db.transaction(() => {
      for (let i = applied; i < MIGRATIONS.length; i++) db.exec(MIGRATIONS[i]!);
      db.pragma(`user_version = ${MIGRATIONS.length}`);
    })();
  }
  for (const sql of READ_INDEXES) db.exec(sql);
}

export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
}
