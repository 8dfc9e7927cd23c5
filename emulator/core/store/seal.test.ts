import { afterEach, describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createSealer, keyFileOf, openSealing, sealerFor } from "./seal.js";
import { getMeta, openDb } from "./db.js";
import { Store } from "./index.js";
import { newSqliteTempFiles } from "../../../test/sqlite-temp-files.js";
import { isTurnkeyError } from "../errors.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDb(): string {
  const d = mkdtempSync(join(tmpdir(), "emu-seal-"));
  dirs.push(d);
  return join(d, "state.db");
}

/** The error a call was refused with. */
function refusal(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error("expected a refusal");
}

/** Every byte SQLite keeps for a database file (the file and its WAL). */
const bytesOnDisk = (file: string) => Buffer.concat([readFileSync(file), existsSync(`${file}-wal`) ? readFileSync(`${file}-wal`) : Buffer.alloc(0)]);

describe("sealing", () => {
  it("round-trips and never stores the plaintext", () => {
    const sealer = createSealer(randomBytes(32));
    const secret = "test test test test test test test test test test test junk";
    const sealed = sealer.seal(secret);
    expect(sealed).not.toContain("test");
    expect(sealer.openText(sealed)).toBe(secret);
  });

  it("rejects tampering and a wrong key", () => {
    const sealer = createSealer(randomBytes(32));
    const sealed = sealer.seal(new Uint8Array([1, 2, 3]));
    const parts = sealed.split(".");
    parts[2] = Buffer.from("zzz").toString("base64url");
    expect(() => sealer.open(parts.join("."))).toThrow();
    expect(() => createSealer(randomBytes(32)).open(sealed)).toThrow();
  });

  it("an in-memory database's random key lives in the process only, never in the database (whose pages may reach a temporary file); another key is refused at open", () => {
    const db = openDb();
    const sealing = openSealing(db, undefined);
    expect(sealing.source).toBe("memory");
    expect(getMeta(db, "sealing_key")).toBeUndefined();
    const hex = sealing.key.toString("hex");
    const cells = (db.prepare("SELECT key, value FROM meta").all() as { key: string; value: string }[]).map((r) => `${r.key}=${r.value}`);
    expect(cells.some((c) => c.includes(hex))).toBe(false);
    // Without the key at hand, the database's secrets cannot be opened again.
    expect(refusal(() => sealerFor(db, undefined)).message).toMatch(/no sealing key at hand opens the secrets of this database/);
    expect(sealerFor(db, hex).openText(sealing.sealer.seal("x"))).toBe("x");
    const e = refusal(() => sealerFor(db, randomBytes(32).toString("hex")));
    expect(isTurnkeyError(e)).toBe(true);
    expect(e.message).toMatch(/EMULATOR_SEALING_KEY does not open the secrets of this database/);
    expect(() => sealerFor(db, "abc")).toThrow(/64 hex/);
  });

  it.runIf(process.platform === "linux")("an in-memory store whose pages spill to its temporary file writes no copy of its key there", () => {
    const store = Store.open(undefined, { sealingKey: undefined });
    try {
      const key = store.sealing.key;
      store.db.pragma("cache_size = -256"); // 64 pages of 4 KiB: the rows below must spill
      const insert = store.db.prepare("INSERT INTO meta (key, value) VALUES (?, ?)");
      const files = newSqliteTempFiles(() =>
        store.tx(() => {
          for (let i = 0; i < 1000; i++) insert.run(`filler-${i}`, store.sealer.seal("x".repeat(1500)));
        }),
      );
      expect(files).toHaveLength(1); // this store's own file
      const hasKey = (bytes: Buffer) => bytes.includes(Buffer.from(key.toString("hex"))) || bytes.includes(key);
      const bytes = files[0]!.read();
      expect(bytes.length).toBeGreaterThan(1_000_000);
      expect(hasKey(bytes)).toBe(false);
      // Images put the key in for the length of a serialize (spilling off, rolled back): still not in the file, and not left in the database.
      for (let i = 0; i < 3; i++) {
        const image = store.image();
        expect(hasKey(image)).toBe(true);
        store.tx(() => {
          for (let j = 0; j < 200; j++) insert.run(`more-${i}-${j}`, store.sealer.seal("y".repeat(1500)));
        });
      }
      expect(hasKey(files[0]!.read())).toBe(false);
      expect(getMeta(store.db, "sealing_key")).toBeUndefined();
    } finally {
      store.close();
    }
  });

  it("an in-memory store's state image carries its key; a store opened from it takes the key out of its database", () => {
    const store = Store.open(undefined, { sealingKey: undefined });
    const secret = store.sealer.seal("a mnemonic");
    const image = store.image();
    const copy = new Database(image);
    expect(getMeta(copy, "sealing_key")).toBe(store.sealing.key.toString("hex"));
    copy.close();
    const loaded = new Store(new Database(image), { sealingKey: undefined });
    expect(loaded.sealer.openText(secret)).toBe("a mnemonic");
    expect(getMeta(loaded.db, "sealing_key")).toBeUndefined();
    // The loaded store (SQLite's memdb) makes images with its key inside, and keeps no copy of it, not even in a free cell.
    const hex = Buffer.from(store.sealing.key.toString("hex"));
    for (let i = 0; i < 2; i++) {
      const again = new Database(loaded.image());
      expect(getMeta(again, "sealing_key")).toBe(hex.toString());
      again.close();
    }
    expect(getMeta(loaded.db, "sealing_key")).toBeUndefined();
    expect(loaded.db.serialize().includes(hex)).toBe(false);
    // Inside an open transaction the image still carries the key (made from a copy then).
    loaded.tx(() => expect(getMeta(new Database(loaded.image()), "sealing_key")).toBe(hex.toString()));
    // A reset keeps the key (in the process) and the check value, not a copy of the key in the database.
    loaded.clear();
    expect(getMeta(loaded.db, "sealing_key")).toBeUndefined();
    expect(loaded.sealer.openText(secret)).toBe("a mnemonic");
    expect(new Database(loaded.image()).prepare("SELECT value FROM meta WHERE key = 'sealing_key'").get()).toEqual({ value: store.sealing.key.toString("hex") });
    store.close();
    loaded.close();
  });
});

describe("a database file's sealing key", () => {
  it("lives beside the file in <db>.key, mode 0600, and nowhere inside the database", () => {
    const file = tempDb();
    const store = Store.open(file, { sealingKey: undefined });
    const secret = store.sealer.seal("a mnemonic");
    store.close();
    const keyFile = keyFileOf(file);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const hex = readFileSync(keyFile, "utf8").trim();
    expect(hex).toMatch(/^[0-9a-f]{64}$/);
    expect(bytesOnDisk(file).includes(Buffer.from(hex))).toBe(false);
    const again = Store.open(file);
    expect(getMeta(again.db, "sealing_key")).toBeUndefined();
    expect(again.sealer.openText(secret)).toBe("a mnemonic");
    expect(again.sealing.source).toBe("key-file");
    again.close();
  });

  it("a database created with EMULATOR_SEALING_KEY and reopened without it is refused, naming the cause; a wrong key too", () => {
    const file = tempDb();
    const envKey = randomBytes(32).toString("hex");
    const store = Store.open(file, { sealingKey: envKey });
    expect(store.sealing.source).toBe("environment");
    store.close();
    expect(existsSync(keyFileOf(file))).toBe(false);

    const without = refusal(() => Store.open(file, { sealingKey: "" }));
    expect(without.message).toMatch(/EMULATOR_SEALING_KEY is not set and there is no key file .*state\.db\.key.*start with the same EMULATOR_SEALING_KEY/);
    expect(existsSync(keyFileOf(file))).toBe(false); // the refused open wrote no key
    const wrong = refusal(() => Store.open(file, { sealingKey: randomBytes(32).toString("hex") }));
    expect(wrong.message).toMatch(/EMULATOR_SEALING_KEY does not open the secrets of .*state\.db: they were sealed with another key/);
    Store.open(file, { sealingKey: envKey }).close();
  });

  it("a lost or replaced key file is refused; an EMULATOR_SEALING_KEY other than the file's too", () => {
    const file = tempDb();
    Store.open(file).close();
    const original = readFileSync(keyFileOf(file), "utf8");
    expect(refusal(() => Store.open(file, { sealingKey: randomBytes(32).toString("hex") })).message).toMatch(/does not open the secrets/);
    writeFileSync(keyFileOf(file), randomBytes(32).toString("hex"));
    expect(refusal(() => Store.open(file)).message).toMatch(/the key file .*state\.db\.key does not open them/);
    unlinkSync(keyFileOf(file));
    expect(refusal(() => Store.open(file)).message).toMatch(/there is no key file/);
    writeFileSync(keyFileOf(file), original);
    Store.open(file).close();
  });

  it("an older database keeping its key inside is migrated: the key moves to <db>.key and leaves the file", () => {
    const file = tempDb();
    const key = randomBytes(32);
    const old = openDb(file); // schema only: no sealing opened yet, as an older emulator left it
    old.prepare("INSERT INTO meta (key, value) VALUES ('sealing_key', ?)").run(key.toString("hex"));
    old.prepare("INSERT INTO organizations (id, name, created_at, updated_at) VALUES ('o', 'o', 0, 0)").run();
    const sealed = createSealer(key).seal("the mnemonic");
    old.prepare("INSERT INTO wallets (id, org_id, name, mnemonic_sealed, created_at, updated_at) VALUES ('w', 'o', 'w', ?, 0, 0)").run(sealed);
    old.close();
    expect(bytesOnDisk(file).includes(Buffer.from(key.toString("hex")))).toBe(true);

    const store = Store.open(file);
    expect(store.sealer.openText(sealed)).toBe("the mnemonic");
    expect(getMeta(store.db, "sealing_key")).toBeUndefined();
    store.close();
    expect(readFileSync(keyFileOf(file), "utf8").trim()).toBe(key.toString("hex"));
    expect(statSync(keyFileOf(file)).mode & 0o777).toBe(0o600);
    expect(bytesOnDisk(file).includes(Buffer.from(key.toString("hex")))).toBe(false);
  });

  it("an older database without a check value is verified against its sealed secrets", () => {
    const file = tempDb();
    const envKey = randomBytes(32);
    const old = openDb(file);
    old.prepare("INSERT INTO organizations (id, name, created_at, updated_at) VALUES ('o', 'o', 0, 0)").run();
    old.prepare("INSERT INTO private_keys (id, org_id, name, curve, private_key_sealed, public_key, created_at, updated_at) VALUES ('k', 'o', 'k', 'CURVE_SECP256K1', ?, '04', 0, 0)").run(createSealer(envKey).seal(randomBytes(32)));
    old.close();
    expect(refusal(() => Store.open(file, { sealingKey: "" })).message).toMatch(/EMULATOR_SEALING_KEY is not set/);
    const ok = Store.open(file, { sealingKey: envKey.toString("hex") });
    expect(getMeta(ok.db, "sealing_check")).toBeDefined();
    ok.close();
  });

  it("a state image of a file database carries its key, so it opens in memory; the file still does not", () => {
    const file = tempDb();
    const store = Store.open(file);
    const sealed = store.sealer.seal("inside");
    const image = store.image();
    const copy = new Store(new Database(image));
    expect(copy.sealer.openText(sealed)).toBe("inside");
    expect(copy.sealing.source).toBe("memory");
    copy.close();
    store.close();
    expect(getMeta(new Database(file, { readonly: true }), "sealing_key")).toBeUndefined();
  });

  it("openSealing reports where the key came from", () => {
    expect(openSealing(openDb(), undefined).source).toBe("memory");
    expect(openSealing(openDb(), "ab".repeat(32)).source).toBe("environment");
  });
});
