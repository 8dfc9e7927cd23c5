import Database from "better-sqlite3";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { afterCommit } from "./after-commit.js";
import { inTransaction } from "./db.js";

let db: Database.Database;
const ran: string[] = [];
/** A transaction level, as the emulator runs every one (Store.tx included). */
const tx = <T>(fn: () => T): T => inTransaction(db, fn);
const write = (v: string) => db.prepare("INSERT INTO t VALUES (?)").run(v);
const rows = () => (db.prepare("SELECT v FROM t ORDER BY v").all() as { v: string }[]).map((r) => r.v);
const later = (name: string) => expect(afterCommit(db, () => ran.push(`${name}:${rows().join(",")}`))).toBe(true);

beforeEach(() => {
  db = new Database(":memory:");
  db.exec("CREATE TABLE t (v TEXT)");
  ran.length = 0;
});
afterEach(() => db.close());

describe("afterCommit", () => {
  it("runs at once outside a transaction, and after the commit inside one (seeing what it committed)", () => {
    later("now");
    tx(() => {
      write("a");
      later("a");
      expect(ran).toEqual(["now:"]);
    });
    expect(ran).toEqual(["now:", "a:a"]);
  });

  it("drops what a rolled-back transaction asked for", () => {
    expect(() =>
      tx(() => {
        write("a");
        later("a");
        throw new Error("no");
      }),
    ).toThrow("no");
    expect(rows()).toEqual([]);
    expect(ran).toEqual([]);
  });

  it("keeps a committed savepoint's work until the outer transaction commits; drops a rolled-back savepoint's, even when the outer one commits", () => {
    tx(() => {
      tx(() => {
        write("kept");
        later("kept");
      });
      expect(ran).toEqual([]);
      try {
        tx(() => {
          write("dropped");
          later("dropped");
          throw new Error("savepoint");
        });
      } catch {
        /* the outer transaction goes on */
      }
    });
    expect(rows()).toEqual(["kept"]);
    expect(ran).toEqual(["kept:kept"]);
  });

  it("logs a hook that throws and still runs the others; the committed transaction does not fail", () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const result = tx(() => {
        write("a");
        afterCommit(db, () => {
          throw new Error("hook broke");
        });
        later("after");
        return "done";
      });
      expect(result).toBe("done");
      expect(ran).toEqual(["after:a"]);
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringContaining("hook broke")]);
    } finally {
      log.mockRestore();
    }
  });

  it("declines inside a transaction begun some other way, whose end it cannot see", () => {
    db.transaction(() => {
      expect(afterCommit(db, () => ran.push("x"))).toBe(false);
      // A level run by inTransaction inside it keeps nothing either.
      tx(() => expect(afterCommit(db, () => ran.push("y"))).toBe(false));
    })();
    expect(ran).toEqual([]);
  });
});
