/** How databases are opened: every path ends with the whole schema, the read indexes and the connection's settings (a loaded state image: families/control/snapshots.test.ts). */
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { inTransaction, openDb, type Db } from "./db.js";
import { migrate } from "./migrations.js";
import { READ_INDEXES } from "./indexes.js";
import { newSqliteTempFiles } from "../../../test/sqlite-temp-files.js";
import { BASELINE_MIGRATIONS } from "./schema.js";

const readIndexNames = READ_INDEXES.map((sql) => /INDEX IF NOT EXISTS (\w+)/.exec(sql)![1]!);
const indexNames = (db: Db) => (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").all() as { name: string }[]).map((r) => r.name);
const settings = (db: Db) => ({ foreignKeys: db.pragma("foreign_keys", { simple: true }), cacheSize: db.pragma("cache_size", { simple: true }) });

describe("openDb", () => {
  it("an in-memory database starts at the current schema, with its read indexes, foreign keys on and a 2 MiB page cache, each one separate", () => {
    const a = openDb();
    const b = openDb();
    try {
      for (const db of [a, b]) {
        expect(db.pragma("user_version", { simple: true })).toBe(BASELINE_MIGRATIONS.length);
        expect(indexNames(db)).toEqual(expect.arrayContaining(readIndexNames));
        expect(settings(db)).toEqual({ foreignKeys: 1, cacheSize: -2048 });
        expect(db.pragma("page_size", { simple: true })).toBe(4096);
      }
      a.prepare("INSERT INTO meta (key, value) VALUES ('only', 'a')").run();
      expect(b.prepare("SELECT value FROM meta WHERE key = 'only'").get()).toBeUndefined();
    } finally {
      a.close();
      b.close();
    }
  });

  it("the schema a new in-memory database is given is the one the migrations build", () => {
    const migrated = new Database(":memory:");
    const fresh = openDb();
    try {
      migrate(migrated);
      const schema = (db: Db) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all();
      expect(schema(fresh)).toEqual(schema(migrated));
      expect(fresh.pragma("user_version", { simple: true })).toBe(migrated.pragma("user_version", { simple: true }));
    } finally {
      migrated.close();
      fresh.close();
    }
  });

  it("an in-memory database larger than its page cache spills to a deleted temporary file and still reads and serializes whole", () => {
    const db = openDb();
    try {
      expect(db.memory).toBe(true); // what reset and the sealing key's home go by
      db.pragma("cache_size = -256"); // 64 pages of 4 KiB, so that 2 MB must spill
      const insert = db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
      const value = (i: number) => `${i}:`.padEnd(2000, String.fromCharCode(97 + (i % 26)));
      const fill = () =>
        db.transaction(() => {
          for (let i = 0; i < 1000; i++) insert.run(`k${i}`, value(i));
        })();
      if (process.platform === "linux") {
        // This database's own file (SQLite opens it at the first spill and unlinks it at once: nothing is left on disk).
        expect(newSqliteTempFiles(fill)).toHaveLength(1);
      } else fill();
      const rows = db.prepare("SELECT key, value FROM meta WHERE key LIKE 'k%'").all() as { key: string; value: string }[];
      expect(rows.length).toBe(1000);
      for (const r of rows) expect(r.value).toBe(value(Number(r.key.slice(1))));
      const copy = new Database(db.serialize());
      try {
        expect(copy.prepare("SELECT count(*) AS n, sum(length(value)) AS bytes FROM meta WHERE key LIKE 'k%'").get()).toEqual({ n: 1000, bytes: 2_000_000 });
      } finally {
        copy.close();
      }
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

describe("inTransaction", () => {
  const fail = (message: string): never => {
    throw new Error(message);
  };
  const table = () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE t (v INTEGER)");
    const values = () => (db.prepare("SELECT v FROM t ORDER BY v").all() as { v: number }[]).map((r) => r.v);
    const add = (v: number) => db.prepare("INSERT INTO t (v) VALUES (?)").run(v);
    return { db, values, add };
  };

  it("commits what the function wrote and returns its result", () => {
    const { db, values, add } = table();
    expect(inTransaction(db, () => (add(1), add(2), "done"))).toBe("done");
    expect(db.inTransaction).toBe(false);
    expect(values()).toEqual([1, 2]);
  });

  it("rolls back everything when the function throws, and rethrows", () => {
    const { db, values, add } = table();
    expect(() => inTransaction(db, () => (add(1), fail("no")))).toThrow("no");
    expect(db.inTransaction).toBe(false);
    expect(values()).toEqual([]);
  });

  it("nested in an open one, undoes only its own writes when it throws", () => {
    const { db, values, add } = table();
    inTransaction(db, () => {
      add(1);
      expect(() => inTransaction(db, () => (add(2), fail("inner")))).toThrow("inner");
      inTransaction(db, () => add(3));
    });
    expect(values()).toEqual([1, 3]);
  });

  it("refuses a function that returns a promise, writing nothing", () => {
    const { db, values, add } = table();
    expect(() => inTransaction(db, () => (add(1), Promise.resolve()))).toThrow(TypeError);
    expect(values()).toEqual([]);
  });
});

/** A database built by the migrations before the first one holding `marker`. */
function databaseBefore(marker: string): Db {
  const old = new Database(":memory:");
  const before = BASELINE_MIGRATIONS.findIndex((sql) => sql.includes(marker));
  old.transaction(() => {
    for (const sql of BASELINE_MIGRATIONS.slice(0, before)) old.exec(sql);
    old.pragma(`user_version = ${before}`);
  })();
  return old;
}

describe("migrations", () => {
  it("the webhook outbox rebuilt without its unique delivery-id index keeps its rows, and its seq goes on from the last one", () => {
    const old = databaseBefore("CREATE TABLE webhook_deliveries_next");
    const insert = (id: string) =>
      old
        .prepare("INSERT INTO webhook_deliveries (id, event_id, event_type, org_id, subject_org_id, url, body, status, attempts, next_attempt_at, history, created_at, updated_at) VALUES (?, 'e', 'ACTIVITY_UPDATES', 'o', 'o', 'http://127.0.0.1/h', '{}', 'PENDING', 0, 5, '[]', 1, 1)")
        .run(id);
    insert("first");
    insert("second");
    old.prepare("DELETE FROM webhook_deliveries WHERE id = 'second'").run();
    migrate(old);
    try {
      expect(old.prepare("SELECT seq, id, status, next_attempt_at AS due FROM webhook_deliveries").all()).toEqual([{ seq: 1, id: "first", status: "PENDING", due: 5 }]);
      expect(indexNames(old).filter((n) => n.startsWith("sqlite_autoindex_webhook_deliveries"))).toEqual([]);
      expect(indexNames(old)).toContain("webhook_deliveries_due");
      // AUTOINCREMENT: a seq once given is not given again (the dispatcher's references stay unambiguous).
      const next = old.prepare("INSERT INTO webhook_deliveries (id, event_id, event_type, org_id, subject_org_id, url, body, status, attempts, history, created_at, updated_at) VALUES ('third', 'e', 'ACTIVITY_UPDATES', 'o', 'o', 'u', '{}', 'PENDING', 0, '[]', 1, 1)").run();
      expect(Number(next.lastInsertRowid)).toBe(3);
    } finally {
      old.close();
    }
  });

  it("organizations made before the authentication switches gain each one their sub-organization flags leave on, after their own features", () => {
    const old = databaseBefore("'FEATURE_NAME_OTP_EMAIL_AUTH', 'disableOtpEmailAuth'");
    const org = old.prepare("INSERT INTO organizations (id, name, parent_id, root_quorum_threshold, root_user_ids, features, created_at, updated_at) VALUES (?, ?, ?, 1, '[]', ?, 0, 0)");
    org.run("top", "top", null, JSON.stringify([{ name: "FEATURE_NAME_WEBHOOK", value: "https://example.com/hook" }]));
    org.run("sub", "sub", "top", "[]");
    org.run("set", "set", "top", JSON.stringify([{ name: "FEATURE_NAME_SMS_AUTH", value: "kept" }]));
    old.prepare("INSERT INTO sub_organizations (org_id, settings) VALUES (?, ?)").run("sub", JSON.stringify({ disableSmsAuth: true, disableEmailAuth: false }));
    old.prepare("INSERT INTO sub_organizations (org_id, settings) VALUES (?, ?)").run("set", JSON.stringify({ disableSmsAuth: true }));
    migrate(old);
    try {
      const features = (id: string) => JSON.parse((old.prepare("SELECT features FROM organizations WHERE id = ?").get(id) as { features: string }).features) as { name: string; value: string }[];
      const on = (...names: string[]) => names.map((name) => ({ name, value: "" }));
      expect(features("top")).toEqual([{ name: "FEATURE_NAME_WEBHOOK", value: "https://example.com/hook" }, ...on("FEATURE_NAME_OTP_EMAIL_AUTH", "FEATURE_NAME_SMS_AUTH", "FEATURE_NAME_EMAIL_AUTH", "FEATURE_NAME_EMAIL_RECOVERY")]);
      expect(features("sub")).toEqual(on("FEATURE_NAME_OTP_EMAIL_AUTH", "FEATURE_NAME_EMAIL_AUTH", "FEATURE_NAME_EMAIL_RECOVERY"));
      // A feature already set keeps its value and place.
      expect(features("set")).toEqual([{ name: "FEATURE_NAME_SMS_AUTH", value: "kept" }, ...on("FEATURE_NAME_OTP_EMAIL_AUTH", "FEATURE_NAME_EMAIL_AUTH", "FEATURE_NAME_EMAIL_RECOVERY")]);
    } finally {
      old.close();
    }
  });

  it("activities written before asks_app_proofs ask for app proofs when they have some, or are still open and their stamped body asks", () => {
    const old = databaseBefore("ADD COLUMN asks_app_proofs");
    old.pragma("foreign_keys = OFF");
    const insert = (id: string, status: string, body: object) =>
      old
        .prepare("INSERT INTO activities (id, org_id, type, status, fingerprint, intent, votes, created_at, updated_at) VALUES (?, 'o', 'ACTIVITY_TYPE_CREATE_WALLET', ?, ?, '{}', ?, 1, 1)")
        .run(id, status, `f-${id}`, JSON.stringify([{ id: "v", message: JSON.stringify(body) }]));
    insert("proved", "ACTIVITY_STATUS_COMPLETED", { generateAppProofs: true });
    insert("completed-without-proofs", "ACTIVITY_STATUS_COMPLETED", { generateAppProofs: true });
    insert("open-asking", "ACTIVITY_STATUS_CONSENSUS_NEEDED", { parameters: { generateAppProofs: true } });
    insert("open-not-asking", "ACTIVITY_STATUS_CONSENSUS_NEEDED", { generateAppProofs: false });
    old.prepare("INSERT INTO app_proofs VALUES ('proved', 'o', 0, 's', 'k', 'p', 'sig', 1)").run();
    migrate(old);
    try {
      const asks = Object.fromEntries((old.prepare("SELECT id, asks_app_proofs AS asks FROM activities").all() as { id: string; asks: number }[]).map((r) => [r.id, r.asks]));
      expect(asks).toEqual({ proved: 1, "completed-without-proofs": 0, "open-asking": 1, "open-not-asking": 0 });
    } finally {
      old.close();
    }
  });
});
