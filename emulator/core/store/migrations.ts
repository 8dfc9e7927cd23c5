/**
 * How a database is brought to this emulator's schema. Each part declares its own migrations
 * where its tables live, so that a family's new table or column is a change in the family's
 * folder only (issue 40). Opening a database applies, in this order:
 *
 * 1. the baseline (schema.ts `BASELINE_MIGRATIONS`): the numbered migrations every database
 *    was built with until now, counted by PRAGMA user_version; frozen;
 * 2. the named migrations: the core's (schema.ts `CORE_MIGRATIONS`, as `core/<id>`), then each
 *    family's (family.ts `migrations`, as `<family>/<id>`) in the families' order; each is
 *    recorded once in `schema_migrations` and never run again;
 * 3. the read indexes (indexes.ts, then each family's `readIndexes`): created IF NOT EXISTS at
 *    every open; they hold no data, are not recorded and do not stop an older emulator.
 *
 * 1 and 2 run in one transaction: all of them land, or none. A database that records a named
 * migration this emulator does not know (a newer emulator's, or one of a family it lacks) is
 * refused, as one whose schema version is past the baseline's.
 *
 * Order: a family's migration may rely on the core's tables and on those of the families
 * listed before it. A database opened by a later emulator runs only what it lacks, after what
 * it has, so each part appends to its own list and never edits, renames, reorders or removes
 * a migration once merged: its name is its record.
 */
import type Database from "better-sqlite3";
import { BASELINE_MIGRATIONS, CORE_MIGRATIONS } from "./schema.js";
import { READ_INDEXES } from "./indexes.js";

/** One migration as its part declares it: `id` is its record (stable: never renamed), `sql` what it runs. */
export type Migration = { id: string; sql: string };

/** A migration as applied and recorded: `<family>/<id>` (or `core/<id>`). */
export type NamedMigration = { name: string; sql: string };

/** What the families add to the core's schema, composed once from their declarations (emulator/families.ts). */
export type FamilySchema = { migrations: readonly NamedMigration[]; readIndexes: readonly string[] };

/** No family's migrations or read indexes: a bare store's (tests). */
export const NO_FAMILY_SCHEMA: FamilySchema = { migrations: [], readIndexes: [] };

/** The table that records the named migrations a database has (created by the baseline's last migration). */
export const MIGRATIONS_TABLE = "schema_migrations";

const ID = /^[a-z0-9][a-z0-9._-]*$/;
const READ_INDEX = /^CREATE INDEX IF NOT EXISTS \w+ ON /;
const CORE = "core";

const named = (owner: string, migrations: readonly Migration[]): NamedMigration[] => migrations.map((m) => ({ name: `${owner}/${m.id}`, sql: m.sql }));
const CORE_NAMED = named(CORE, CORE_MIGRATIONS);

/**
 * The families' migrations and read indexes, in the families' order. Refuses a declaration that
 * could not be recorded or applied safely: an id outside [a-z0-9._-], one given twice in a
 * family, a family named as the core, an empty migration, a read index that is not
 * `CREATE INDEX IF NOT EXISTS <name> ON ...`.
 */
export function composeSchema(families: readonly { name: string; migrations?: readonly Migration[]; readIndexes?: readonly string[] }[]): FamilySchema {
  const migrations: NamedMigration[] = [];
  const readIndexes: string[] = [];
  for (const family of families) {
    const ids = new Set<string>();
    for (const m of family.migrations ?? []) {
      const where = `family ${family.name}: migration ${JSON.stringify(m.id)}`;
      if (family.name === CORE) throw new Error(`${where}: "core" names the core's own migrations`);
      if (!ID.test(m.id)) throw new Error(`${where}: an id is lower-case letters, digits, '.', '_' or '-'`);
      if (ids.has(m.id)) throw new Error(`${where} is declared twice`);
      if (!m.sql.trim()) throw new Error(`${where} has no SQL`);
      ids.add(m.id);
    }
    migrations.push(...named(family.name, family.migrations ?? []));
    for (const sql of family.readIndexes ?? []) {
      if (!READ_INDEX.test(sql.trim())) throw new Error(`family ${family.name}: a read index is "CREATE INDEX IF NOT EXISTS <name> ON ...": ${sql}`);
      readIndexes.push(sql.trim());
    }
  }
  return { migrations, readIndexes };
}

/** The named migrations a database has applied, in the order it applied them. */
export function appliedMigrations(db: Database.Database): string[] {
  if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(MIGRATIONS_TABLE)) return [];
  return db.prepare(`SELECT name FROM ${MIGRATIONS_TABLE} ORDER BY rowid`).pluck().all() as string[];
}

/**
 * Brings a database to this emulator's schema: the baseline migrations it lacks and the named
 * migrations it has not recorded, in one transaction (a new database takes every one: one
 * commit, not one each), then the read indexes. Refuses, changing nothing, a database from a
 * newer emulator.
 */
export function migrate(db: Database.Database, schema: FamilySchema = NO_FAMILY_SCHEMA): void {
  const version = db.pragma("user_version", { simple: true }) as number;
  if (version > BASELINE_MIGRATIONS.length) {
    throw new Error(`database schema version ${version} is newer than this emulator understands (${BASELINE_MIGRATIONS.length}); upgrade the emulator`);
  }
  const known = [...CORE_NAMED, ...schema.migrations];
  const applied = new Set(appliedMigrations(db));
  const unknown = [...applied].filter((name) => !known.some((m) => m.name === name));
  if (unknown.length) {
    throw new Error(
      `the database records ${unknown.length === 1 ? "a migration" : "migrations"} this emulator does not know (${unknown.join(", ")}): ` +
        "it was written by a newer emulator, or one with another family; upgrade the emulator",
    );
  }
  const pending = known.filter((m) => !applied.has(m.name));
  if (version < BASELINE_MIGRATIONS.length || pending.length) {
    db.transaction(() => {
      for (let i = version; i < BASELINE_MIGRATIONS.length; i++) db.exec(BASELINE_MIGRATIONS[i]!);
      db.pragma(`user_version = ${BASELINE_MIGRATIONS.length}`);
      const record = db.prepare(`INSERT INTO ${MIGRATIONS_TABLE} (name) VALUES (?)`);
      for (const m of pending) {
        try {
          db.exec(m.sql);
        } catch (e) {
          throw new Error(`migration ${m.name} failed, nothing was applied: ${(e as Error).message}`, { cause: e });
        }
        record.run(m.name);
      }
    })();
  }
  for (const sql of [...READ_INDEXES, ...schema.readIndexes]) db.exec(sql);
}
