import { afterEach, describe, expect, it } from "vitest";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Store } from "./index.js";
import { getMeta, setMeta } from "./db.js";

const stores: Store[] = [];
const dirs: string[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) if (s.db.open) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function organization(store: Store, id: string) {
  store.organizations.insert({ id, name: id, parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt: 1, updatedAt: 1 });
}

describe("Store.clear", () => {
  it("in memory: a fresh database replaces the old one, which is closed; settings and the sealing key stay", () => {
    const store = Store.open();
    stores.push(store);
    const sealed = store.sealer.seal("secret");
    setMeta(store.db, "setting", "kept");
    organization(store, "org-a");
    const old = store.db;
    store.clear();
    expect(old.open).toBe(false);
    expect(store.db).not.toBe(old);
    expect(store.organizations.get("org-a")).toBeUndefined();
    expect(getMeta(store.db, "setting")).toBe("kept");
    expect(store.sealer.openText(sealed)).toBe("secret");
    // Every repository writes to the new database.
    organization(store, "org-b");
    expect((store.db.prepare("SELECT id FROM organizations").all() as { id: string }[]).map((r) => r.id)).toEqual(["org-b"]);
    // And the new database kept the check value of the same sealing key (held by the process, not in the database).
    expect(getMeta(store.db, "sealing_key")).toBeUndefined();
    expect(new Store(store.db, { sealingKey: store.sealing.key.toString("hex") }).sealer.openText(sealed)).toBe("secret");
    expect(() => new Store(store.db, { sealingKey: "11".repeat(32) })).toThrow(/does not open the secrets/);
  });

  it("in a file: rows are deleted, the database stays", () => {
    const dir = mkdtempSync(join(tmpdir(), "store-clear-"));
    dirs.push(dir);
    const store = Store.open(join(dir, "state.db"));
    stores.push(store);
    organization(store, "org-a");
    const db = store.db;
    store.clear();
    expect(store.db).toBe(db);
    expect(store.organizations.get("org-a")).toBeUndefined();
  });
});
