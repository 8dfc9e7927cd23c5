import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { insertRow, rowMapper } from "./rows.js";

type Thing = { id: string; parentId: string | null; tags: string[]; active: boolean; createdAt: number };

describe("row mapping", () => {
  it("round-trips records through a real table with JSON, boolean and null columns", () => {
    const db = new Database(":memory:");
    db.exec("CREATE TABLE things (id TEXT PRIMARY KEY, parent_id TEXT, tags TEXT NOT NULL, active INTEGER NOT NULL, created_at INTEGER NOT NULL)");
    const map = rowMapper<Thing>({ json: ["tags"], bool: ["active"] });
    const t: Thing = { id: "a", parentId: null, tags: ["x", "y"], active: true, createdAt: 5 };
    insertRow(db, "things", map, t);
    const raw = db.prepare("SELECT * FROM things").get() as Record<string, unknown>;
    expect(raw).toEqual({ id: "a", parent_id: null, tags: '["x","y"]', active: 1, created_at: 5 });
    expect(map.read(raw)).toEqual(t);
    expect(map.read(undefined)).toBeUndefined();
  });
});
