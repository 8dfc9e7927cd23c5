import { afterEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../families.js";
import { Keyring } from "../../core/keyring.js";
import { systemClock } from "../../core/clock.js";
import { TurnkeyError } from "../../core/errors.js";
import type { Runtime } from "../../core/runtime.js";
import { createRandom } from "../../core/random.js";
import { Store } from "../../core/store/index.js";
import { appliedMigrations, composeSchema, type FamilySchema } from "../../core/store/migrations.js";
import { READ_INDEXES } from "../../core/store/indexes.js";
import { BASELINE_MIGRATIONS } from "../../core/store/schema.js";
import { captureState, loadState, openStateImage, SnapshotShelf } from "./snapshots.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  delete process.env.EMULATOR_SEALING_KEY;
});
const tempDir = () => {
  const d = mkdtempSync(join(tmpdir(), "emu-snap-"));
  dirs.push(d);
  return d;
};

function runtime(file?: string, store = openStore(file)): Runtime {
  return { store, keyring: new Keyring(store.sealer), clock: systemClock(), random: createRandom() } as unknown as Runtime;
}

function addOrg(rt: Runtime, id: string): void {
  rt.store.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)").run(`marker-${id}`, id);
}
const markers = (rt: Runtime) => (rt.store.db.prepare("SELECT value FROM meta WHERE key LIKE 'marker-%' ORDER BY value").all() as { value: string }[]).map((r) => r.value);

const rpc = (f: () => unknown): TurnkeyError => {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(TurnkeyError);
    return e as TurnkeyError;
  }
  throw new Error("expected a TurnkeyError");
};

describe("state images", () => {
  it("is a SQLite database file image that SQLite itself opens", () => {
    const rt = runtime();
    addOrg(rt, "a");
    const image = captureState(rt.store);
    const db = new Database(image);
    expect(db.prepare("SELECT value FROM meta WHERE key = 'marker-a'").get()).toEqual({ value: "a" });
    db.close();
  });

  it("restores a snapshot: later changes are gone, the sealing key and secrets still open", () => {
    const rt = runtime();
    const sealed = rt.store.sealer.seal("a secret");
    const shelf = new SnapshotShelf();
    addOrg(rt, "a");
    const snap = shelf.take(rt, "before b");
    addOrg(rt, "b");
    const oldStore = rt.store;
    const oldKeyring = rt.keyring;
    expect(shelf.restore(rt, snap.id)).toEqual(snap);
    expect(markers(rt)).toEqual(["a"]);
    expect(rt.store).not.toBe(oldStore);
    expect(rt.keyring).not.toBe(oldKeyring);
    expect(rt.store.sealer.openText(sealed)).toBe("a secret");
    expect(shelf.list()).toEqual([snap]);
    shelf.delete(snap.id);
    expect(rpc(() => shelf.restore(rt, snap.id)).httpStatus).toBe(404);
    expect(rpc(() => shelf.delete(snap.id)).httpStatus).toBe(404);
  });

  it("captures what a file-backed (WAL) instance has not checkpointed yet, and loads into a file durably", () => {
    const dir = tempDir();
    const a = runtime(join(dir, "a.db"));
    addOrg(a, "from-a");
    const sealed = a.store.sealer.seal("sealed in a");
    const image = captureState(a.store);
    const b = runtime(join(dir, "b.db"));
    addOrg(b, "old-b");
    loadState(b, image);
    expect(markers(b)).toEqual(["from-a"]);
    expect(b.store.sealer.openText(sealed)).toBe("sealed in a");
    addOrg(b, "after-load");
    b.store.close();
    const reopened = openStore(join(dir, "b.db"));
    expect((reopened.db.prepare("SELECT COUNT(*) AS n FROM meta WHERE key LIKE 'marker-%'").get() as { n: number }).n).toBe(2);
    expect(reopened.db.pragma("journal_mode", { simple: true })).toBe("wal");
    expect(reopened.sealer.openText(sealed)).toBe("sealed in a");
    reopened.close();
    a.store.close();
  });

  it("refuses what is not an emulator state, naming the body, and changes nothing", () => {
    const rt = runtime();
    addOrg(rt, "kept");
    const before = rt.store;
    for (const bad of [Buffer.from("not a database"), Buffer.alloc(0), Buffer.concat([Buffer.from("SQLite format 3\0"), Buffer.alloc(200)])]) {
      const e = rpc(() => loadState(rt, bad));
      expect(e.httpStatus).toBe(400);
      expect(JSON.stringify(e.details)).toContain('"field":"body"');
    }
    const other = new Database(":memory:");
    other.exec("CREATE TABLE t (x)");
    expect(rpc(() => loadState(rt, other.serialize())).message).toMatch(/not an emulator state/);
    expect(rt.store).toBe(before);
    expect(markers(rt)).toEqual(["kept"]);
  });

  it("refuses a state from a newer schema", () => {
    const rt = runtime();
    const image = new Database(captureState(rt.store));
    image.pragma("user_version = 9999");
    expect(rpc(() => loadState(rt, image.serialize())).code).toBe(9);
  });

  it("refuses a state whose secrets were sealed under another EMULATOR_SEALING_KEY", () => {
    process.env.EMULATOR_SEALING_KEY = "11".repeat(32);
    const sealedUnderEnv = runtime();
    sealedUnderEnv.store.db.prepare("INSERT INTO organizations (id, name, parent_id, root_quorum_threshold, created_at, updated_at) VALUES ('o', 'o', NULL, 1, 0, 0)").run();
    sealedUnderEnv.store.db.prepare("INSERT INTO wallets (id, org_id, name, mnemonic_sealed, exported, imported, created_at, updated_at) VALUES ('w', 'o', 'w', ?, 0, 0, 0, 0)").run(sealedUnderEnv.store.sealer.seal("m"));
    const image = captureState(sealedUnderEnv.store);

    delete process.env.EMULATOR_SEALING_KEY;
    const rt = runtime();
    const e = rpc(() => loadState(rt, image));
    expect(e.code).toBe(9);
    expect(e.message).toMatch(/EMULATOR_SEALING_KEY/);

    process.env.EMULATOR_SEALING_KEY = "11".repeat(32);
    loadState(rt, image);
    expect(rt.keyring.mnemonicOf(rt.store.wallets.get("o", "w")!)).toBe("m");
  });
});

describe("state images and the families' migrations", () => {
  // A family defined here (no real family declares a migration yet), and the same family once it has a second one.
  const notesTable = { id: "notes-table", sql: "CREATE TABLE notes (id TEXT PRIMARY KEY, body TEXT NOT NULL)" };
  const notes = composeSchema([{ name: "notes", migrations: [notesTable] }]);
  const notesLater = composeSchema([{ name: "notes", migrations: [notesTable, { id: "notes-pinned", sql: "ALTER TABLE notes ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0" }] }]);
  const withSchema = (schema: FamilySchema, file?: string) => runtime(file, Store.open(file, { schema }));
  const noteIds = (rt: Runtime) => rt.store.db.prepare("SELECT id FROM notes ORDER BY id").pluck().all();

  it("a restored snapshot and a state loaded into a file keep the record: the store opens them without applying a migration again", () => {
    const rt = withSchema(notes);
    rt.store.db.prepare("INSERT INTO notes (id, body) VALUES ('n1', 'b')").run();
    const shelf = new SnapshotShelf();
    const snap = shelf.take(rt);
    rt.store.db.prepare("INSERT INTO notes (id, body) VALUES ('n2', 'b')").run();
    shelf.restore(rt, snap.id);
    expect(noteIds(rt)).toEqual(["n1"]);
    expect(appliedMigrations(rt.store.db)).toEqual(["notes/notes-table"]);

    const file = join(tempDir(), "b.db");
    const b = withSchema(notes, file);
    loadState(b, captureState(rt.store));
    expect(noteIds(b)).toEqual(["n1"]);
    b.store.close();
    const reopened = Store.open(file, { schema: notes });
    expect(appliedMigrations(reopened.db)).toEqual(["notes/notes-table"]);
    reopened.close();
  });

  it("a state exported before a family's migration gains it on import", () => {
    const before = withSchema(notes);
    before.store.db.prepare("INSERT INTO notes (id, body) VALUES ('n1', 'b')").run();
    const rt = withSchema(notesLater);
    loadState(rt, captureState(before.store));
    expect(appliedMigrations(rt.store.db)).toEqual(["notes/notes-table", "notes/notes-pinned"]);
    expect(rt.store.db.prepare("SELECT id, pinned FROM notes").all()).toEqual([{ id: "n1", pinned: 0 }]);
  });

  it("refuses a state that records a migration this emulator does not know, as a state from a newer emulator, and changes nothing", () => {
    const newer = withSchema(notesLater);
    const rt = withSchema(notes);
    const before = rt.store;
    const e = rpc(() => loadState(rt, captureState(newer.store)));
    expect(e.code).toBe(9);
    expect(e.httpStatus).toBe(400);
    expect(e.message).toMatch(/records a migration this emulator does not know \(notes\/notes-pinned\).*upgrade the emulator/);
    expect(JSON.stringify(e.details)).toContain("STATE_TOO_NEW");
    expect(rt.store).toBe(before);
  });
});

describe("openStateImage", () => {
  it("a loaded state (an older schema, without the read indexes) is migrated, indexed and opened with the in-memory settings", () => {
    const old = new Database(":memory:");
    old.transaction(() => {
      for (const sql of BASELINE_MIGRATIONS.slice(0, BASELINE_MIGRATIONS.length - 1)) old.exec(sql);
      old.pragma(`user_version = ${BASELINE_MIGRATIONS.length - 1}`);
    })();
    const image = old.serialize();
    old.close();
    const db = openStateImage(image);
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(BASELINE_MIGRATIONS.length);
      const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name);
      expect(indexes).toEqual(expect.arrayContaining(READ_INDEXES.map((sql) => /INDEX IF NOT EXISTS (\w+)/.exec(sql)![1]!)));
      expect({ foreignKeys: db.pragma("foreign_keys", { simple: true }), cacheSize: db.pragma("cache_size", { simple: true }) }).toEqual({ foreignKeys: 1, cacheSize: -2048 });
    } finally {
      db.close();
    }
  });
});
