/** How databases are opened: every path ends with the whole schema, the read indexes and the connection's settings. */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { openStateImage } from "../control/snapshots.js";
import { migrate, openDb, type Db } from "./db.js";
import { READ_INDEXES } from "./indexes.js";
import { MIGRATIONS } from "./schema.js";

const readIndexNames = READ_INDEXES.map((sql) => /INDEX IF NOT EXISTS (\w+)/.exec(sql)![1]!);
const indexNames = (db: Db) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name);
const settings = (db: Db) => ({ foreignKeys: db.pragma("foreign_keys", { simple: true }), cacheSize: db.pragma("cache_size", { simple: true }) });

describe("openDb and openStateImage", () => {
  it("an in-memory database starts at the current schema, with its read indexes, foreign keys on and a small page cache, each one separate", () => {
    const a = openDb();
    const b = openDb();
    try {
      for (const db of [a, b]) {
        expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
        expect(indexNames(db)).toEqual(expect.arrayContaining(readIndexNames));
        expect(settings(db)).toEqual({ foreignKeys: 1, cacheSize: -2048 });
      }
      a.prepare("INSERT INTO meta (key, value) VALUES ('only', 'a')").run();
      expect(b.prepare("SELECT value FROM meta WHERE key = 'only'").get()).toBeUndefined();
    } finally {
      a.close();
      b.close();
    }
  });

  it("a loaded state (an older schema, without the read indexes) is migrated, indexed and opened with the in-memory settings", () => {
    const old = new Database(":memory:");
    old.transaction(() => {
      for (const sql of MIGRATIONS.slice(0, MIGRATIONS.length - 1)) old.exec(sql);
      old.pragma(`user_version = ${MIGRATIONS.length - 1}`);
    })();
    const image = old.serialize();
    old.close();
    const db = openStateImage(image);
    try {
      expect(db.pragma("user_version", { simple: true })).toBe(MIGRATIONS.length);
      expect(indexNames(db)).toEqual(expect.arrayContaining(readIndexNames));
      expect(settings(db)).toEqual({ foreignKeys: 1, cacheSize: -2048 });
    } finally {
      db.close();
    }
  });

  it("migrate leaves a current database as it is", () => {
    const db = openDb();
    try {
      const before = db.prepare("SELECT sql FROM sqlite_master ORDER BY name").all();
      migrate(db);
      expect(db.prepare("SELECT sql FROM sqlite_master ORDER BY name").all()).toEqual(before);
    } finally {
      db.close();
    }
  });
});
