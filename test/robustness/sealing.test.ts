/**
 * The sealing key of a database file, through startEmulator: a key that does not open the
 * database's secrets stops the start with a message naming the cause (instead of a 500 at
 * the first signature); a generated key lives in <db>.key with mode 0600.
 */
import { afterEach, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { verifyMessage } from "viem";
import { startTestEmulator, sdkClient } from "../support.js";
import type { RunningEmulator } from "../../emulator/index.js";

const ACCOUNT_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const savedEnv = process.env.EMULATOR_SEALING_KEY;
const dirs: string[] = [];
afterEach(() => {
  if (savedEnv === undefined) delete process.env.EMULATOR_SEALING_KEY;
  else process.env.EMULATOR_SEALING_KEY = savedEnv;
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDb(): string {
  const d = mkdtempSync(join(tmpdir(), "emu-sealing-"));
  dirs.push(d);
  return join(d, "emulator.db");
}

/** Signs an EIP-191 message with the fixture wallet's account 0 and checks it with viem. */
async function signsWithFixtureWallet(emu: RunningEmulator): Promise<void> {
  const message = "sealed and opened";
  const hex = `0x${Buffer.from(`\x19Ethereum Signed Message:\n${message.length}${message}`).toString("hex")}` as const;
  const { r, s, v } = await sdkClient(emu).signRawPayload({ signWith: ACCOUNT_0, payload: hex, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
  const signature = `0x${r}${s}${(Number.parseInt(v, 16) + 27).toString(16)}` as const;
  expect(await verifyMessage({ address: ACCOUNT_0, message, signature })).toBe(true);
}

describe("starting on a database file", () => {
  it("created with EMULATOR_SEALING_KEY: without it, or with another key, the start is refused; with it, signing works", async () => {
    const db = tempDb();
    const key = randomBytes(32).toString("hex");
    process.env.EMULATOR_SEALING_KEY = key;
    const first = await startTestEmulator({ db });
    await signsWithFixtureWallet(first);
    await first.stop();
    expect(existsSync(`${db}.key`)).toBe(false);

    delete process.env.EMULATOR_SEALING_KEY;
    await expect(startTestEmulator({ db })).rejects.toThrow(/EMULATOR_SEALING_KEY is not set and there is no key file .*emulator\.db\.key/);
    expect(existsSync(`${db}.key`)).toBe(false); // the refused start generated no key

    process.env.EMULATOR_SEALING_KEY = randomBytes(32).toString("hex");
    await expect(startTestEmulator({ db })).rejects.toThrow(/EMULATOR_SEALING_KEY does not open the secrets of .*emulator\.db/);

    process.env.EMULATOR_SEALING_KEY = key;
    const again = await startTestEmulator({ db });
    await signsWithFixtureWallet(again);
    await again.stop();
  });

  it("without EMULATOR_SEALING_KEY: the key is generated into <db>.key (mode 0600), used on restart, and required", async () => {
    delete process.env.EMULATOR_SEALING_KEY;
    const db = tempDb();
    const first = await startTestEmulator({ db });
    await first.stop();
    expect(statSync(`${db}.key`).mode & 0o777).toBe(0o600);
    const hex = readFileSync(`${db}.key`, "utf8").trim();
    expect(readFileSync(db).includes(Buffer.from(hex))).toBe(false);

    const again = await startTestEmulator({ db });
    await signsWithFixtureWallet(again);
    await again.stop();

    process.env.EMULATOR_SEALING_KEY = randomBytes(32).toString("hex");
    await expect(startTestEmulator({ db })).rejects.toThrow(/does not open the secrets/);
  });
});
