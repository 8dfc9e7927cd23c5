/**
 * Snapshots and whole-state export/import on SQLite's own serialization: a state is one
 * database image (`db.serialize()`, i.e. sqlite3_serialize: the very bytes of a database
 * file), and loading one opens it with `new Database(image)` (sqlite3_deserialize). No
 * hand-written dump: every table, index and the schema version travel as SQLite wrote them.
 *
 * Loading is atomic: the new database is opened, checked and migrated on the side, then it
 * replaces the runtime's store in one synchronous step (no request runs in between), with a
 * fresh keyring so no cached seed or key of the old state survives. An instance kept in a
 * file (`--db`) gets the image written beside its file and renamed over it.
 *
 * Sealed secrets: a state image carries the sealing key inside (Store.image(); a file-backed
 * instance moves it out to `<db>.key` again when it opens the loaded file), so an exported
 * state opens anywhere. A state sealed under EMULATOR_SEALING_KEY carries no key: the
 * importing emulator needs the same EMULATOR_SEALING_KEY, and an import whose secrets do
 * not open under the key it would use is refused (nothing changes).
 */
import Database from "better-sqlite3";
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { GrpcCode, invalidArgument, notFound, TurnkeyError, turnkeyErrorDetail } from "../../core/errors.js";
import { Keyring } from "../../core/keyring.js";
import type { Runtime } from "../../core/runtime.js";
import { useMemorySettings, type Db } from "../../core/store/db.js";
import { Store } from "../../core/store/index.js";
import { migrate, NO_FAMILY_SCHEMA, type FamilySchema } from "../../core/store/migrations.js";

const SQLITE_MAGIC = Buffer.from("SQLite format 3\0", "latin1");

/** The whole state as one SQLite database image. */
export function captureState(store: Store): Buffer {
  return asRollbackImage(store.image()); // with the sealing key inside, unless it is EMULATOR_SEALING_KEY
}

/**
 * Header bytes 18 and 19 (file format write/read version) are 2 in WAL mode, which an
 * in-memory database cannot open; 1 (rollback journal) opens from memory and from a file
 * (a file-backed instance switches it back to WAL when it opens it).
 */
function asRollbackImage(image: Buffer): Buffer {
  if (image.length >= 100 && (image[18] !== 1 || image[19] !== 1)) {
    image[18] = 1;
    image[19] = 1;
  }
  return image;
}

/**
 * Opens an image as a new in-memory database, checked and migrated to this emulator's schema
 * with the families' part `schema` (a WAL-form image gets its header bytes 18-19 set to
 * rollback form in place).
 */
export function openStateImage(image: Buffer, opts: { check?: boolean; schema?: FamilySchema } = {}): Db {
  if (image.length < 100 || !image.subarray(0, 16).equals(SQLITE_MAGIC)) {
    throw invalidArgument("the state is not a SQLite database file (expected the bytes GET /emulator/v1/state returns)", "body");
  }
  let db: Db;
  try {
    // SQLite copies the image (deserialize); the header fix-up touches only an image in WAL form.
    db = new Database(asRollbackImage(image));
  } catch (e) {
    throw invalidArgument(`the state does not open as a SQLite database: ${(e as Error).message}`, "body");
  }
  try {
    if (opts.check !== false) {
      const check = db.pragma("quick_check", { simple: true });
      if (check !== "ok") throw invalidArgument(`the state's database is damaged: ${String(check)}`, "body");
      if ((db.pragma("user_version", { simple: true }) as number) < 1 || !db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'").get()) {
        throw invalidArgument("the state is a SQLite database but not an emulator state (no emulator schema)", "body");
      }
    }
    useMemorySettings(db);
    try {
      migrate(db, opts.schema ?? NO_FAMILY_SCHEMA);
    } catch (e) {
      throw new TurnkeyError(GrpcCode.FAILED_PRECONDITION, (e as Error).message, [turnkeyErrorDetail("STATE_TOO_NEW")]);
    }
    return db;
  } catch (e) {
    db.close();
    if (e instanceof TurnkeyError) throw e;
    throw invalidArgument(`the state does not open as an SQLite database: ${(e as Error).message}`, "body");
  }
}

/** Refuses a state whose sealed secrets do not open with the key this emulator would use for it. */
function checkSealedSecrets(store: Store): void {
  const tables = store.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[];
  for (const { name } of tables) {
    const columns = (store.db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).map((c) => c.name).filter((c) => c.endsWith("_sealed"));
    for (const column of columns) {
      const row = store.db.prepare(`SELECT "${column}" AS v FROM "${name}" WHERE "${column}" IS NOT NULL LIMIT 1`).get() as { v: string } | undefined;
      if (!row) continue;
      try {
        store.sealer.open(row.v);
      } catch {
        throw new TurnkeyError(
          GrpcCode.FAILED_PRECONDITION,
          "the state's secrets were sealed with another key: it was exported from an emulator run with EMULATOR_SEALING_KEY; start this one with the same EMULATOR_SEALING_KEY",
          [turnkeyErrorDetail("SEALING_KEY_MISMATCH")],
        );
      }
    }
  }
}

/** Replaces the runtime's whole state with `image`, atomically. */
export function loadState(rt: Runtime, image: Buffer, opts: { check?: boolean } = {}): void {
  const parts = { repositories: rt.store.repositoryFactories, schema: rt.store.schema };
  const db = openStateImage(image, { ...opts, schema: parts.schema });
  let incoming: Store;
  try {
    incoming = new Store(db, parts);
    if (opts.check !== false) checkSealedSecrets(incoming);
  } catch (e) {
    db.close();
    throw e;
  }
  const old = rt.store;
  if (old.db.memory) {
    install(rt, incoming);
    // A request still awaiting something may hold the old store for a moment: close it later.
    setTimeout(() => old.close(), 1_000).unref();
    return;
  }
  // A file-backed instance: the new image replaces the file (written beside it, then renamed).
  const file = old.db.name;
  const bytes = captureState(incoming);
  incoming.close();
  const tmp = `${file}.loading-${process.pid}`;
  writeDurably(tmp, bytes);
  old.close(); // checkpoints and removes the WAL of the old state
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
  renameSync(tmp, file);
  install(rt, Store.open(file, parts));
}

function install(rt: Runtime, store: Store): void {
  rt.store = store;
  rt.keyring = new Keyring(store.sealer);
}

function writeDurably(file: string, bytes: Buffer): void {
  const fd = openSync(file, "w");
  try {
    let off = 0;
    while (off < bytes.length) off += writeSync(fd, bytes, off, bytes.length - off);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Writes the state to a file atomically (e.g. `--export-on-exit`). */
export function exportStateFile(store: Store, file: string): void {
  const tmp = `${file}.writing-${process.pid}`;
  writeDurably(tmp, captureState(store));
  renameSync(tmp, file);
}

export type SnapshotInfo = { id: string; name: string; createdAt: string; sizeBytes: number };

/** Named snapshots of one instance, kept in memory (they do not survive a restart; export does). */
export class SnapshotShelf {
  private readonly items = new Map<string, { info: SnapshotInfo; image: Buffer }>();

  take(rt: Runtime, name?: unknown): SnapshotInfo {
    if (name !== undefined && (typeof name !== "string" || !name.trim() || name.length > 200)) {
      throw invalidArgument("name must be a non-empty string of at most 200 characters", "name");
    }
    const image = captureState(rt.store);
    const info: SnapshotInfo = {
      id: rt.random.uuid(),
      name: (name as string | undefined) ?? `snapshot-${this.items.size + 1}`,
      createdAt: new Date(rt.clock.now()).toISOString(),
      sizeBytes: image.length,
    };
    this.items.set(info.id, { info, image });
    return info;
  }

  list(): SnapshotInfo[] {
    return [...this.items.values()].map((s) => s.info);
  }

  restore(rt: Runtime, id: string): SnapshotInfo {
    const snap = this.get(id);
    // Our own image: already checked when taken; the sealing key is this instance's.
    loadState(rt, snap.image, { check: false });
    return snap.info;
  }

  delete(id: string): SnapshotInfo {
    const snap = this.get(id);
    this.items.delete(id);
    return snap.info;
  }

  private get(id: string) {
    const snap = this.items.get(id);
    if (!snap) throw notFound(`snapshot not found: ${id}`);
    return snap;
  }
}
