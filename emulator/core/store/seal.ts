/**
 * The one sealing module: every secret the emulator keeps at rest (mnemonics, private keys,
 * enclave keys, the proxy key, OTP codes, the mailbox's messages) is sealed here with
 * AES-256-GCM before it reaches SQLite and opened here when one request needs it.
 *
 * Where the sealing key lives (never in the same file as the secrets it seals):
 * - EMULATOR_SEALING_KEY (64 hex characters), when set: used as given, stored nowhere;
 * - a database file `<db>`: the file `<db>.key` beside it (mode 0600), generated with the
 *   database; a key an older emulator kept inside the file is moved out to `<db>.key`;
 * - `:memory:`: a random key held in the process only: the default temporary database may
 *   spill pages to a (deleted) file, so the key stays out of it; a snapshot or an exported
 *   state image gets it inside (as a file's does), and loading one takes it back out.
 *
 * Each database records a key check value (a known text sealed under its key) when it is
 * created. Opening a database verifies it first: a key that does not open the database's
 * secrets is refused at once, naming the cause, instead of failing at the first signature.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { GrpcCode, TurnkeyError, turnkeyErrorDetail } from "../errors.js";
import { deleteMeta, getMeta, setMeta, type Db } from "./db.js";
import { uncounted } from "./committed-changes.js";

const VERSION = "s1";
/** Meta keys: the check value, and the key itself (only inside state images). */
const CHECK = "sealing_check";
const KEY = "sealing_key";
const CHECK_TEXT = "turnkey-emulator sealing key check v1";
/** Columns holding sealed values: what an older database without a check value is verified against. */
const SEALED_COLUMNS: [table: string, column: string][] = [
  ["wallets", "mnemonic_sealed"],
  ["private_keys", "private_key_sealed"],
  ["auth_proxy_configs", "proxy_key_sealed"],
  ["import_targets", "target_key_sealed"],
  ["otps", "code_sealed"],
];

export type Sealer = {
  seal(plaintext: Uint8Array | string): string;
  open(sealed: string): Uint8Array;
  openText(sealed: string): string;
};

/** Where the key in use came from. */
export type KeySource = "environment" | "key-file" | "memory";

export type Sealing = { sealer: Sealer; key: Buffer; source: KeySource };

/** The path of the key file kept beside a database file. */
export const keyFileOf = (dbFile: string) => `${dbFile}.key`;

/** Refusal to open a database whose secrets the available key does not open. */
export function sealingKeyMismatch(message: string): TurnkeyError {
  return new TurnkeyError(GrpcCode.FAILED_PRECONDITION, message, [turnkeyErrorDetail("SEALING_KEY_MISMATCH")]);
}

function parseKey(hex: string, where: string): Buffer {
  const h = hex.trim();
  if (!/^[0-9a-fA-F]{64}$/.test(h)) throw new Error(`${where} must be 64 hex characters (32 bytes)`);
  return Buffer.from(h, "hex");
}

/** A sample sealed value of the database: its check value, else any sealed secret (older databases). */
function sampleSealed(db: Db): { value: string; isCheck: boolean } | undefined {
  const check = getMeta(db, CHECK);
  if (check) return { value: check, isCheck: true };
  for (const [table, column] of SEALED_COLUMNS) {
    if (!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table)) continue;
    const row = db.prepare(`SELECT "${column}" AS v FROM "${table}" WHERE "${column}" IS NOT NULL LIMIT 1`).get() as { v: string } | undefined;
    if (row) return { value: row.v, isCheck: false };
  }
  return undefined;
}

function opens(key: Buffer, sample: { value: string; isCheck: boolean }): boolean {
  try {
    const plain = createSealer(key).openText(sample.value);
    return !sample.isCheck || plain === CHECK_TEXT;
  } catch {
    return false;
  }
}

/** Writes a key file readable by its owner only (written beside, then renamed into place). */
function writeKeyFile(path: string, key: Buffer): void {
  const tmp = `${path}.writing-${process.pid}`;
  writeFileSync(tmp, `${key.toString("hex")}\n`, { mode: 0o600 });
  chmodSync(tmp, 0o600); // whatever the umask
  renameSync(tmp, path);
}

/** Removes the key from a database file for good (the freed page is zeroed, the WAL emptied). */
function dropKeyFromFile(db: Db): void {
  db.pragma("secure_delete = ON");
  deleteMeta(db, KEY);
  db.pragma("wal_checkpoint(TRUNCATE)");
}

/**
 * Finds and verifies the sealing key of a (migrated) database; creates it for a new one.
 * Throws a SEALING_KEY_MISMATCH error when no key at hand opens the database's secrets.
 */
export function openSealing(db: Db, envKey: string | undefined = process.env.EMULATOR_SEALING_KEY): Sealing {
  const file = db.memory ? undefined : db.name;
  const keyFile = file ? keyFileOf(file) : undefined;
  const env = envKey ? parseKey(envKey, "EMULATOR_SEALING_KEY") : undefined;
  const inFile = getMeta(db, KEY);
  const stored = inFile ? parseKey(inFile, "the database's sealing key") : undefined;
  const onDisk = keyFile && existsSync(keyFile) ? parseKey(readFileSync(keyFile, "utf8"), `the key file ${keyFile}`) : undefined;

  const sample = sampleSealed(db);
  let key: Buffer;
  let source: KeySource;
  if (env) {
    if (sample && !opens(env, sample)) {
      throw sealingKeyMismatch(
        `EMULATOR_SEALING_KEY does not open the secrets of ${file ?? "this database"}: they were sealed with another key. ` +
          `Start with the EMULATOR_SEALING_KEY the database was created with${keyFile ? `, or unset it to use ${keyFile}` : ""}.`,
      );
    }
    key = env;
    source = "environment";
  } else if (!sample) {
    key = onDisk ?? stored ?? randomBytes(32);
    source = file ? "key-file" : "memory";
  } else {
    const found = [onDisk, stored].find((k): k is Buffer => !!k && opens(k, sample));
    if (!found) {
      const tried = [onDisk && `the key file ${keyFile}`, stored && "the key stored in the database"].filter((t): t is string => !!t);
      throw sealingKeyMismatch(
        `no sealing key at hand opens the secrets of ${file ?? "this database"}: ` +
          (tried.length === 2 ? `neither ${tried.join(" nor ")} opens them` : tried.length === 1 ? `${tried[0]} does not open them` : `EMULATOR_SEALING_KEY is not set${keyFile ? ` and there is no key file ${keyFile}` : ""}`) +
          ". It was probably created with EMULATOR_SEALING_KEY: start with the same EMULATOR_SEALING_KEY" +
          (keyFile ? `, or put its key file back at ${keyFile}.` : "."),
      );
    }
    key = found;
    source = file ? "key-file" : "memory";
  }

  const sealer = createSealer(key);
  db.transaction(() => {
    if (!sample?.isCheck) setMeta(db, CHECK, sealer.seal(CHECK_TEXT));
    // An image's key moves into the process (a later reset copies the meta table into a temporary database).
    if (source === "memory" && inFile !== undefined) deleteMeta(db, KEY);
  })();
  if (file) {
    if (source === "key-file" && !onDisk?.equals(key)) writeKeyFile(keyFile!, key);
    if (inFile !== undefined) dropKeyFromFile(db);
  }
  return { sealer, key, source };
}

/** The sealer of a database (see openSealing). */
export function sealerFor(db: Db, envKey: string | undefined = process.env.EMULATOR_SEALING_KEY): Sealer {
  return openSealing(db, envKey).sealer;
}

/**
 * Makes a serialized image of a database self-contained: unless its key came from the
 * environment, the key goes inside the image (a state image opens anywhere; the database
 * itself, a file or the temporary one, never holds its key).
 */
export function withKeyInside(image: Buffer, sealing: Sealing, open: (image: Buffer) => Db): Buffer {
  if (sealing.source === "environment") return image; // an environment key travels apart
  // A file database serializes in WAL form (header bytes 18-19 = 2), which does not open in memory; 1 does.
  if (image.length >= 100) image[18] = image[19] = 1;
  const copy = open(image);
  try {
    setMeta(copy, KEY, sealing.key.toString("hex"));
    return copy.serialize();
  } finally {
    copy.close();
  }
}

/**
 * `withKeyInside` for an in-memory database, without copying its image twice:
 * - the temporary database (named ""): the key goes into its meta table inside a savepoint for
 *   the length of one serialize (which reads the connection's own uncommitted pages) and is
 *   rolled back at once. Spilling is off meanwhile, so the page holding it stays in memory and
 *   never reaches the database's temporary file.
 * - a state image (SQLite's memdb, which serializes its committed bytes only, and which never
 *   reaches a file): the key is committed, serialized and deleted again, with secure_delete on
 *   so that its bytes are zeroed, not left in a free cell.
 * Not inside an open transaction (a memdb would not see the key), nor for a file (whose pages
 * could reach its WAL): those go through withKeyInside.
 */
export function serializeInMemoryWithKey(db: Db, sealing: Sealing): Buffer {
  if (sealing.source === "environment") return db.serialize();
  // The key's row is put back: not a change of the state (the change version stays).
  return uncounted(db, () => serializeWithKeyRow(db, sealing));
}

function serializeWithKeyRow(db: Db, sealing: Sealing): Buffer {
  if (db.name === "") {
    db.pragma("cache_spill = OFF");
    db.exec("SAVEPOINT emulator_image");
    try {
      setMeta(db, KEY, sealing.key.toString("hex"));
      return db.serialize();
    } finally {
      db.exec("ROLLBACK TO emulator_image");
      db.exec("RELEASE emulator_image");
      db.pragma("cache_spill = ON");
    }
  }
  const secureDelete = db.pragma("secure_delete", { simple: true }) as number;
  db.pragma("secure_delete = ON");
  try {
    setMeta(db, KEY, sealing.key.toString("hex"));
    try {
      return db.serialize();
    } finally {
      deleteMeta(db, KEY);
    }
  } finally {
    db.pragma(`secure_delete = ${secureDelete}`);
  }
}

export function createSealer(key: Buffer): Sealer {
  if (key.length !== 32) throw new Error("sealing key must be 32 bytes");
  const open = (sealed: string): Uint8Array => {
    const [version, ivB64, dataB64, tagB64] = sealed.split(".");
    if (version !== VERSION || !ivB64 || !dataB64 || !tagB64) throw new Error("sealed value is malformed");
    const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(ivB64, "base64url"));
    decipher.setAuthTag(Buffer.from(tagB64, "base64url"));
    return new Uint8Array(Buffer.concat([decipher.update(Buffer.from(dataB64, "base64url")), decipher.final()]));
  };
  return {
    seal(plaintext) {
      const iv = randomBytes(12);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(typeof plaintext === "string" ? Buffer.from(plaintext, "utf8") : plaintext), cipher.final()]);
      return [VERSION, iv.toString("base64url"), data.toString("base64url"), cipher.getAuthTag().toString("base64url")].join(".");
    },
    open,
    openText(sealed) {
      return Buffer.from(open(sealed)).toString("utf8");
    },
  };
}
