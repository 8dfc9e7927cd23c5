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
import { captureState, loadState, SnapshotShelf } from "./snapshots.js";

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

function runtime(file?: string): Runtime {
  const store = openStore(file);
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
