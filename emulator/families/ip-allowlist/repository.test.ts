import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { migrate } from "../../core/store/migrations.js";
import { BASELINE_MIGRATIONS } from "../../core/store/schema.js";

const ORG = "00000000-0000-4000-8000-00000000000a";

/** A database at the schema version just before key-level lists started following their keys. */
function databaseBeforeTheTrigger(): Database.Database {
  const db = new Database(":memory:");
  db.pragma("foreign_keys = ON");
  const before = BASELINE_MIGRATIONS.findIndex((m) => m.includes("api_keys_drop_ip_allowlist"));
  expect(before).toBeGreaterThan(0);
  for (const m of BASELINE_MIGRATIONS.slice(0, before)) db.exec(m);
  db.pragma(`user_version = ${before}`);
  db.prepare("INSERT INTO organizations (id, name, created_at, updated_at) VALUES (?, 'o', 0, 0)").run(ORG);
  for (const user of ["u1", "u2"]) db.prepare("INSERT INTO users (id, org_id, name, created_at, updated_at) VALUES (?, ?, ?, 0, 0)").run(user, ORG, user);
  return db;
}

const addKey = (db: Database.Database, id: string, userId: string, publicKey: string) =>
  db.prepare("INSERT INTO api_keys (id, org_id, user_id, name, public_key, credential_type, created_at, updated_at) VALUES (?, ?, ?, 'k', ?, 'CREDENTIAL_TYPE_API_KEY_P256', 0, 0)").run(id, ORG, userId, publicKey);
const addList = (db: Database.Database, publicKey: string) =>
  db.prepare("INSERT INTO ip_allowlists (org_id, public_key, enabled, on_evaluation_error, rules, created_at, updated_at) VALUES (?, ?, ?, 'DENY', '[]', 0, 0)").run(ORG, publicKey, publicKey === "" ? 1 : null);
const lists = (db: Database.Database) => (db.prepare("SELECT public_key FROM ip_allowlists ORDER BY public_key").all() as { public_key: string }[]).map((r) => r.public_key);

describe("key-level IP allowlists follow their API keys", () => {
  it("the migration drops lists whose key is already gone and keeps the organization's and live keys' lists", () => {
    const db = databaseBeforeTheTrigger();
    addKey(db, "k1", "u1", "02aa");
    for (const publicKey of ["", "02aa", "02dead"]) addList(db, publicKey);
    migrate(db);
    expect(lists(db)).toEqual(["", "02aa"]);
  });

  it("a list goes with the last key of that public key in the organization, however the key is deleted", () => {
    const db = databaseBeforeTheTrigger();
    migrate(db);
    addKey(db, "k1", "u1", "02aa");
    addKey(db, "k2", "u2", "02aa");
    addKey(db, "k3", "u1", "02bb");
    for (const publicKey of ["", "02aa", "02bb"]) addList(db, publicKey);

    db.prepare("DELETE FROM api_keys WHERE id = 'k1'").run();
    expect(lists(db)).toEqual(["", "02aa", "02bb"]); // u2 still holds 02aa
    db.prepare("DELETE FROM users WHERE id = 'u2'").run(); // cascades to k2
    expect(lists(db)).toEqual(["", "02bb"]);
    db.prepare("DELETE FROM users WHERE id = 'u1'").run();
    expect(lists(db)).toEqual([""]);
    db.prepare("DELETE FROM organizations WHERE id = ?").run(ORG);
    expect(lists(db)).toEqual([]);
  });
});
