/**
 * The one sealing module: every secret the emulator keeps at rest (mnemonics, private keys,
 * enclave keys, the proxy key) is sealed here with AES-256-GCM before it reaches SQLite and
 * opened here when one request needs it.
 *
 * The sealing key comes from EMULATOR_SEALING_KEY (64 hex chars) when set; otherwise it is
 * generated once per database and kept in its meta table. That keeps secrets out of plain
 * columns, dumps and logs; it is not a defence against someone holding the database file
 * without the environment key. This is a development emulator: its keys are not for value.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { getMeta, setMeta, type Db } from "./db.js";

const VERSION = "s1";

export type Sealer = {
  seal(plaintext: Uint8Array | string): string;
  open(sealed: string): Uint8Array;
  openText(sealed: string): string;
};

export function sealerFor(db: Db, envKey = process.env.EMULATOR_SEALING_KEY): Sealer {
  return createSealer(sealingKey(db, envKey));
}

function sealingKey(db: Db, envKey: string | undefined): Buffer {
  if (envKey) {
    if (!/^[0-9a-fA-F]{64}$/.test(envKey)) throw new Error("EMULATOR_SEALING_KEY must be 64 hex characters (32 bytes)");
    return Buffer.from(envKey, "hex");
  }
  let hex = getMeta(db, "sealing_key");
  if (!hex) {
    hex = randomBytes(32).toString("hex");
    setMeta(db, "sealing_key", hex);
  }
  return Buffer.from(hex, "hex");
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
