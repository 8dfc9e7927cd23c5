import Database from "better-sqlite3";
import { appliedMigrations, migrate, MIGRATIONS_TABLE, NO_FAMILY_SCHEMA, type FamilySchema } from "./migrations.js";
import { withCommitHooks } from "./after-commit.js";
import { countedIfCommitted } from "./committed-changes.js";

export type Db = Database.Database;

const runners = new WeakMap<Db, (fn: () => unknown) => unknown>();

/**
 * Runs `fn` in one transaction of `db` (a savepoint inside an open one), with better-sqlite3's
 * own transaction function, made once per connection: `db.transaction(fn)` builds four
 * wrappers each call, ~6 µs, paid by every write the emulator makes. Work asked inside it with
 * `afterCommit` runs once the outermost one has committed (after-commit.ts).
 */
export function inTransaction<T>(db: Db, fn: () => T): T {
  let run = runners.get(db);
  if (!run) runners.set(db, (run = db.transaction((f: () => unknown) => f())));
  const runIt = run;
  // A rollback's changes are taken off the connection's count of committed changes (committed-changes.ts).
  return countedIfCommitted(db, () => withCommitHooks(db, () => runIt(fn) as T));
}

/**
 * A new database's whole schema as SQL, the schema version and the named migrations it stands
 * for, and `key`, the families' part it was built with (`schemaKey`).
 */
export type DatabaseSchema = { key: string; sql: string; version: number; applied: string[] };

/**
 * The schema with every family's part as it was when the package was bundled (scripts/bundle.ts
 * defines it from `newDatabaseSchema(schema)`, saving each process the ~10 ms of running every
 * migration once); absent when the sources run unbundled, which build it once per process.
 */
declare const __EMULATOR_DATABASE_SCHEMA__: DatabaseSchema | undefined;

/** The new-database schema of each families' part a process has used (one, but in tests). */
const newSchemas = new WeakMap<FamilySchema, DatabaseSchema>();

/** What identifies the families' part of a schema: its migrations' names and its read indexes. */
const schemaKey = (schema: FamilySchema): string => JSON.stringify([schema.migrations.map((m) => m.name), schema.readIndexes]);

/**
 * SQLite's own 4 KiB pages. Every transaction copies each page it changes into its rollback
 * journal first, so a larger page makes every write dearer: with 16 KiB pages a signing
 * request cost the server ~17% more CPU (same-run A/B, 16 in flight). Larger pages packed a
 * pure in-memory database tighter (+189 MB of RSS for 100k signing activities, +252 MB with
 * 4 KiB), which no longer matters: the temporary database keeps only its page cache in memory.
 */
const PAGE_SIZE = 4_096;
/**
 * Page cache of an in-memory database (the temporary one, or a loaded state image): what the
 * temporary one keeps in memory before it spills pages to its file. 2 MiB holds a new
 * instance whole (0.6 MB) with room for what a test run touches; a page read back is a copy
 * from the OS's page cache (from the image's buffer for an image). What it holds stays behind
 * as freed heap after a reset, so it is kept small (measured with 16 KiB pages: RSS after a
 * reset and 10 s idle 31% over idle with a 16 MiB cache, 14% with 2 MiB).
 */
const PAGE_CACHE_KIB = 2_048;

/**
 * Opens (and migrates) the emulator's database: a private temporary database by default
 * (`:memory:`), or a file kept in WAL mode with synchronous=FULL, so that every acknowledged
 * write survives a restart.
 *
 * `:memory:` is SQLite's temporary database (the empty file name), not its pure in-memory
 * one: its pages stay in memory while they fit its page cache (2 MiB), and only a larger state
 * spills the rest to a file that SQLite deletes as it opens it (in SQLite's temp directory:
 * SQLITE_TMPDIR, TMPDIR, /var/tmp or /tmp), so nothing is left behind, even by a killed
 * process. A pure in-memory database keeps every page in the process (100k signing activities:
 * +166 MB of RSS, here at most the cache) and is capped at 1 GiB. Measured alone, a one-row
 * transaction was faster here (37 µs against 54), a read of a page no longer cached slower
 * (24 µs against 14). A new database is given the schema as SQL taken from a migrated one
 * (~4 ms), as a temporary database cannot be loaded from an image.
 */
export function openDb(file = ":memory:", schema: FamilySchema = NO_FAMILY_SCHEMA): Db {
  if (file === ":memory:") return openTemporaryDb(schema);
  const db = new Database(file);
  try {
    db.pragma("journal_mode = WAL");
    db.pragma("synchronous = FULL");
    db.pragma("foreign_keys = ON");
    migrate(db, schema);
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

function openTemporaryDb(schema: FamilySchema): Db {
  const db = new Database("");
  try {
    db.pragma(`page_size = ${PAGE_SIZE}`); // before its first page is written
    // The rollback journal of a temporary database is of no use after a crash: kept in memory, no file.
    db.pragma("journal_mode = MEMORY");
    useMemorySettings(db);
    const built = newSchemaFor(schema);
    db.transaction(() => {
      db.exec(built.sql);
      db.pragma(`user_version = ${built.version}`);
      const record = db.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES (?)`);
      for (const name of built.applied) record.run(name);
    })();
    return db;
  } catch (e) {
    db.close();
    throw e;
  }
}

/** The per-connection settings of an in-memory database: a new temporary one, or a state image (SQLite's memdb) a snapshot or import opens. */
export function useMemorySettings(db: Db): void {
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
  db.pragma("foreign_keys = ON");
}

/** The bundled schema when it was built with this families' part, else one built now (once per part). */
function newSchemaFor(schema: FamilySchema): DatabaseSchema {
  let built = newSchemas.get(schema);
  if (!built) {
    const bundled = typeof __EMULATOR_DATABASE_SCHEMA__ === "object" ? __EMULATOR_DATABASE_SCHEMA__ : undefined;
    built = bundled?.key === schemaKey(schema) ? bundled : newDatabaseSchema(schema);
    newSchemas.set(schema, built);
  }
  return built;
}

/**
 * The whole schema of a new database (tables, indexes, triggers of every migration, the core's
 * and the families', and the read indexes) as SQLite stores it in sqlite_master, in the order
 * it was created, taken from a database migrated in memory, with the named migrations it
 * records (migrations.ts). The migrations write no other rows, which the check below keeps
 * true: a migration that seeds rows needs them copied here too.
 */
export function newDatabaseSchema(schema: FamilySchema = NO_FAMILY_SCHEMA): DatabaseSchema {
  const db = new Database(":memory:");
  try {
    migrate(db, schema);
    const objects = db.prepare("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all() as { type: string; name: string; sql: string }[];
    for (const { name } of objects.filter((o) => o.type === "table" && o.name !== MIGRATIONS_TABLE)) {
      if (db.prepare(`SELECT 1 FROM "${name}" LIMIT 1`).get()) throw new Error(`store/db.ts: a migration wrote rows into ${name}; a new database's schema script does not copy rows`);
    }
    return {
      key: schemaKey(schema),
      sql: objects.map((o) => `${o.sql};`).join("\n"),
      version: db.pragma("user_version", { simple: true }) as number,
      applied: appliedMigrations(db),
    };
  } finally {
    db.close();
  }
}

export function getMeta(db: Db, key: string): string | undefined {
  const row = db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value: string } | undefined;
  return row?.value;
}

export function setMeta(db: Db, key: string, value: string): void {
  db.prepare("INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").run(key, value);
}

export function deleteMeta(db: Db, key: string): void {
  db.prepare("DELETE FROM meta WHERE key = ?").run(key);
}
