import { afterEach, describe, expect, it } from "vitest";
import { Store } from "./index.js";
import { keptReadings, rowsCommitted, tableChanges } from "./table-changes.js";
import type { Db } from "./db.js";

const userChanges = (db: Db) => tableChanges(db, "users");
const userRowsCommitted = (db: Db) => rowsCommitted(db, "users");

const stores: Store[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
});

describe("user changes", () => {
  it("counts inserts, updates, foreign-key cascades and rolled-back writes; not writes elsewhere", () => {
    const store = Store.open();
    stores.push(store);
    const db = store.db;
    const moved = (fn: () => void) => {
      const before = userChanges(db)!;
      fn();
      return userChanges(db)! - before;
    };
    expect(moved(() => store.organizations.insert({ id: "o", name: "o", parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt: 1, updatedAt: 1 }))).toBe(0);
    expect(moved(() => db.prepare("INSERT INTO users (id, org_id, name, created_at, updated_at) VALUES ('u', 'o', 'n', 1, 1)").run())).toBe(1);
    expect(moved(() => db.prepare("UPDATE users SET name = 'm' WHERE id = 'u'").run())).toBe(1);
    db.prepare("INSERT INTO tags (id, org_id, tag_type, name, created_at, updated_at) VALUES ('t', 'o', 'TAG_TYPE_USER', 't', 1, 1)").run();
    expect(moved(() => db.prepare("INSERT INTO tag_members (tag_id, member_id) VALUES ('t', 'u')").run())).toBe(1);
    // Deleting the tag removes its membership through ON DELETE CASCADE.
    expect(moved(() => db.prepare("DELETE FROM tags WHERE id = 't'").run())).toBe(1);
    expect(moved(() => {
      try {
        store.tx(() => {
          db.prepare("UPDATE users SET name = 'x' WHERE id = 'u'").run();
          throw new Error("roll back");
        });
      } catch {
        // rolled back
      }
    })).toBe(1);
    expect((db.prepare("SELECT name FROM users WHERE id = 'u'").get() as { name: string }).name).toBe("m");
  });

  it("tells committed user rows: outside a transaction, in a Store.tx until it writes a user table, never in one begun elsewhere", () => {
    const store = Store.open();
    stores.push(store);
    const db = store.db;
    store.organizations.insert({ id: "o", name: "o", parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt: 1, updatedAt: 1 });
    expect(userRowsCommitted(db)).toBe(true);
    const seen: boolean[] = [];
    store.tx(() => {
      seen.push(userRowsCommitted(db));
      db.prepare("INSERT INTO tags (id, org_id, tag_type, name, created_at, updated_at) VALUES ('t', 'o', 'TAG_TYPE_USER', 't', 1, 1)").run();
      seen.push(userRowsCommitted(db)); // a write elsewhere
      store.tx(() => seen.push(userRowsCommitted(db))); // nested: still the outer one's start
      db.prepare("INSERT INTO users (id, org_id, name, created_at, updated_at) VALUES ('u', 'o', 'n', 1, 1)").run();
      seen.push(userRowsCommitted(db));
      store.tx(() => seen.push(userRowsCommitted(db)));
    });
    expect(seen).toEqual([true, true, true, false, false]);
    expect(userRowsCommitted(db)).toBe(true);
    db.transaction(() => seen.push(userRowsCommitted(db)))();
    expect(seen.at(-1)).toBe(false);
  });

  it("watches the fresh database a reset puts in place", () => {
    const store = Store.open();
    stores.push(store);
    store.clear();
    expect(userChanges(store.db)).toBe(0);
  });
});

describe("keptReadings", () => {
  it("keeps a reading until its group's tables change (not another group's), and never one made after the transaction changed them", () => {
    const store = Store.open();
    stores.push(store);
    const db = store.db;
    const kept = keptReadings<number>("webhookRouting");
    let reads = 0;
    const orgCount = () =>
      kept(db, "orgs", () => {
        reads++;
        return (db.prepare("SELECT count(*) AS n FROM organizations").get() as { n: number }).n;
      });
    expect([orgCount(), orgCount(), reads]).toEqual([0, 0, 1]);
    store.organizations.insert({ id: "o", name: "o", parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt: 1, updatedAt: 1 });
    expect([orgCount(), orgCount(), reads]).toEqual([1, 1, 2]);
    db.prepare("INSERT INTO users (id, org_id, name, created_at, updated_at) VALUES ('u', 'o', 'n', 1, 1)").run(); // the users group
    expect([orgCount(), reads]).toEqual([1, 2]);
    expect(() =>
      store.tx(() => {
        db.prepare("DELETE FROM organizations").run();
        expect([orgCount(), orgCount(), reads]).toEqual([0, 0, 4]); // read each time, kept never
        throw new Error("roll back");
      }),
    ).toThrow("roll back");
    expect([orgCount(), orgCount(), reads]).toEqual([1, 1, 5]);
  });
});
