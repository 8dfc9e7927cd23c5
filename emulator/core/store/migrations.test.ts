/**
 * Migrations a family declares in its own folder: applied after the frozen baseline, once, in
 * the families' order, recorded by name; a database that records one this emulator does not
 * know is refused. The families here are defined in the test (no real family declares a
 * migration yet); the schema version numbers are those of the files earlier emulators wrote.
 */
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openDb, type Db } from "./db.js";
import { Store } from "./index.js";
import { appliedMigrations, composeSchema, migrate, type Migration } from "./migrations.js";
import { BASELINE_MIGRATIONS } from "./schema.js";

const dirs: string[] = [];
const open: (Db | Store)[] = [];
afterEach(() => {
  for (const o of open.splice(0)) if ("close" in o && (o instanceof Store ? o.db.open : o.open)) o.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const tempFile = () => {
  const d = mkdtempSync(join(tmpdir(), "emu-migrations-"));
  dirs.push(d);
  return join(d, "state.db");
};
const kept = <T extends Db | Store>(x: T): T => (open.push(x), x);

const notesTable: Migration = { id: "notes-table", sql: "CREATE TABLE notes (id TEXT PRIMARY KEY, org_id TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE, body TEXT NOT NULL)" };
const notesPinned: Migration = { id: "notes-pinned", sql: "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0" };
/** Listed after notes, whose table it references. */
const labels = { name: "labels", migrations: [{ id: "labels-table", sql: "CREATE TABLE labels (note_id TEXT NOT NULL REFERENCES notes(id) ON DELETE CASCADE, label TEXT NOT NULL)" }] };
const notes = { name: "notes", migrations: [notesTable] };
const notesLater = { name: "notes", migrations: [notesTable, notesPinned], readIndexes: ["CREATE INDEX IF NOT EXISTS notes_org ON notes(org_id)"] };

const version = (db: Db) => db.pragma("user_version", { simple: true }) as number;
const tables = (db: Db) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[]);
const columns = (db: Db, table: string) => (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
const indexes = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all() as string[];
const addOrg = (db: Db) => db.prepare("INSERT INTO organizations (id, name, created_at, updated_at) VALUES ('o', 'o', 0, 0)").run();
const addNote = (db: Db, id: string) => db.prepare("INSERT INTO notes (id, org_id, body) VALUES (?, 'o', 'b')").run(id);
const noteIds = (db: Db) => db.prepare("SELECT id FROM notes ORDER BY id").pluck().all() as string[];

/** A database as the emulators before this scheme left it: the first `n` baseline migrations, schema version `n`. */
function earlierDatabase(file: string, n: number): void {
  const db = new Database(file);
  db.transaction(() => {
    for (const sql of BASELINE_MIGRATIONS.slice(0, n)) db.exec(sql);
    db.pragma(`user_version = ${n}`);
  })();
  addOrg(db);
  db.close();
}

const refusal = (f: () => unknown): Error => {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a refusal");
};

describe("the baseline", () => {
  it("is frozen: the 29 migrations earlier emulators applied and the one that starts the record of named ones", () => {
    // A change to the core's tables is a named migration in CORE_MIGRATIONS, a family's in its family.ts.
    expect(BASELINE_MIGRATIONS).toHaveLength(30);
    expect(BASELINE_MIGRATIONS[29]).toMatch(/CREATE TABLE IF NOT EXISTS schema_migrations/);
  });
});

describe("a family's migrations", () => {
  it("are applied to a file once, after the baseline, in the families' order, and recorded by name: reopening applies none again", () => {
    const file = tempFile();
    const schema = composeSchema([notes, labels]);
    const store = Store.open(file, { schema });
    expect(version(store.db)).toBe(30);
    expect(appliedMigrations(store.db)).toEqual(["notes/notes-table", "labels/labels-table"]);
    addOrg(store.db);
    addNote(store.db, "n1");
    store.close();
    // Run again, CREATE TABLE notes would fail: the record keeps it from running.
    const again = kept(Store.open(file, { schema }));
    expect(appliedMigrations(again.db)).toEqual(["notes/notes-table", "labels/labels-table"]);
    expect(noteIds(again.db)).toEqual(["n1"]);
  });

  it("added to a family later, is the only one a file that has the earlier ones takes, and the family's read index comes with it", () => {
    const file = tempFile();
    const store = Store.open(file, { schema: composeSchema([notes]) });
    addOrg(store.db);
    addNote(store.db, "n1");
    store.close();
    const later = kept(Store.open(file, { schema: composeSchema([notesLater]) }));
    expect(appliedMigrations(later.db)).toEqual(["notes/notes-table", "notes/notes-pinned"]);
    expect(columns(later.db, "notes")).toContain("pinned");
    expect(later.db.prepare("SELECT id, pinned FROM notes").all()).toEqual([{ id: "n1", pinned: 0 }]);
    expect(indexes(later.db)).toContain("notes_org");
  });

  it("reach a file an earlier emulator left at schema version 29: it gains the record, then the families' migrations, its rows kept", () => {
    const file = tempFile();
    earlierDatabase(file, 29);
    const store = kept(Store.open(file, { schema: composeSchema([notes, labels]) }));
    expect(version(store.db)).toBe(30);
    expect(appliedMigrations(store.db)).toEqual(["notes/notes-table", "labels/labels-table"]);
    expect(store.organizations.get("o")?.name).toBe("o");
    addNote(store.db, "n1");
    expect(noteIds(store.db)).toEqual(["n1"]);
  });

  it("reach an older file in the same transaction as the baseline migrations it lacks", () => {
    const file = tempFile();
    earlierDatabase(file, 20);
    const store = kept(Store.open(file, { schema: composeSchema([notes]) }));
    expect(version(store.db)).toBe(30);
    expect(columns(store.db, "activities")).toContain("asks_app_proofs"); // the baseline's last change of a table
    expect(appliedMigrations(store.db)).toEqual(["notes/notes-table"]);
  });

  it("one that fails applies nothing, neither the baseline migrations the database lacked nor the families' before it, and names itself", () => {
    const file = tempFile();
    earlierDatabase(file, 29);
    const broken = { name: "broken", migrations: [{ id: "bad", sql: "ALTER TABLE nowhere ADD COLUMN x" }] };
    const e = refusal(() => Store.open(file, { schema: composeSchema([notes, broken]) }));
    expect(e.message).toMatch(/^migration broken\/bad failed, nothing was applied: no such table: nowhere/);
    const db = kept(new Database(file));
    expect(version(db)).toBe(29);
    expect(tables(db)).not.toContain("schema_migrations");
    expect(tables(db)).not.toContain("notes");
  });

  it("recorded in a database but unknown to this emulator (a newer one's, or another family's) refuse it, naming them, and change nothing", () => {
    const file = tempFile();
    Store.open(file, { schema: composeSchema([notesLater, labels]) }).close();
    const older = refusal(() => Store.open(file, { schema: composeSchema([notes, labels]) }));
    expect(older.message).toBe(
      "the database records a migration this emulator does not know (notes/notes-pinned): it was written by a newer emulator, or one with another family; upgrade the emulator",
    );
    expect(refusal(() => Store.open(file)).message).toMatch(/records migrations this emulator does not know \(notes\/notes-table, notes\/notes-pinned, labels\/labels-table\)/);
    const db = kept(new Database(file));
    expect(appliedMigrations(db)).toEqual(["notes/notes-table", "notes/notes-pinned", "labels/labels-table"]);
  });

  it("as a schema version past the baseline's: a database of a newer numbered scheme is refused", () => {
    const db = kept(new Database(":memory:"));
    db.pragma("user_version = 31");
    expect(refusal(() => migrate(db)).message).toBe("database schema version 31 is newer than this emulator understands (30); upgrade the emulator");
  });

  it("are in a new in-memory database as in one migrated from nothing, recorded the same; a bare store's has none of them", () => {
    const schema = composeSchema([notesLater, labels]);
    const fresh = kept(openDb(undefined, schema));
    const migrated = kept(new Database(":memory:"));
    migrate(migrated, schema);
    const objects = (db: Db) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all();
    expect(objects(fresh)).toEqual(objects(migrated));
    expect(appliedMigrations(fresh)).toEqual(["notes/notes-table", "notes/notes-pinned", "labels/labels-table"]);
    expect(appliedMigrations(fresh)).toEqual(appliedMigrations(migrated));
    // It is then opened as any database: migrating it again applies nothing.
    migrate(fresh, schema);
    expect(appliedMigrations(fresh)).toHaveLength(3);
    const bare = kept(openDb());
    expect(tables(bare)).not.toContain("notes");
    expect(appliedMigrations(bare)).toEqual([]);
    expect(tables(bare)).toContain("schema_migrations");
  });

  it("survive a reset: an in-memory store's fresh database has them, a file keeps its record while its rows go", () => {
    const schema = composeSchema([notes]);
    const memory = kept(Store.open(undefined, { schema }));
    addOrg(memory.db);
    addNote(memory.db, "n1");
    memory.clear();
    expect(noteIds(memory.db)).toEqual([]);
    expect(appliedMigrations(memory.db)).toEqual(["notes/notes-table"]);

    const file = tempFile();
    const store = Store.open(file, { schema });
    addOrg(store.db);
    addNote(store.db, "n1");
    store.clear();
    expect(noteIds(store.db)).toEqual([]);
    expect(appliedMigrations(store.db)).toEqual(["notes/notes-table"]);
    store.close();
    // Reopened, the file is not given its migrations again.
    expect(appliedMigrations(kept(Store.open(file, { schema })).db)).toEqual(["notes/notes-table"]);
  });
});

describe("composeSchema", () => {
  const composing = (...families: { name: string; migrations?: Migration[]; readIndexes?: string[] }[]) => refusal(() => composeSchema(families)).message;

  it("names each migration after its family, in the families' order, with their read indexes", () => {
    expect(composeSchema([notesLater, { name: "none" }, labels])).toEqual({
      migrations: [
        { name: "notes/notes-table", sql: notesTable.sql },
        { name: "notes/notes-pinned", sql: notesPinned.sql },
        { name: "labels/labels-table", sql: labels.migrations[0]!.sql },
      ],
      readIndexes: ["CREATE INDEX IF NOT EXISTS notes_org ON notes(org_id)"],
    });
  });

  it("refuses a declaration it could not record or apply safely, naming the family and the migration", () => {
    expect(composing({ name: "notes", migrations: [notesTable, { ...notesPinned, id: notesTable.id }] })).toBe('family notes: migration "notes-table" is declared twice');
    expect(composing({ name: "notes", migrations: [{ id: "Notes table", sql: notesTable.sql }] })).toMatch(/^family notes: migration "Notes table": an id is lower-case letters/);
    expect(composing({ name: "notes", migrations: [{ id: "empty", sql: " " }] })).toBe('family notes: migration "empty" has no SQL');
    expect(composing({ name: "core", migrations: [notesTable] })).toMatch(/^family core: .*names the core's own migrations/);
    expect(composing({ name: "notes", readIndexes: ["CREATE UNIQUE INDEX notes_body ON notes(body)"] })).toMatch(/^family notes: a read index is "CREATE INDEX IF NOT EXISTS/);
  });
});
