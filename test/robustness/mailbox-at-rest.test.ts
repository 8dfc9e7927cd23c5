/**
 * OTP codes at rest: after an OTP flow on a database file, the code the mailbox shows is in
 * none of the bytes the emulator keeps or hands out (the database file, its WAL, an exported
 * state image), while the mailbox route still shows it and the code still verifies.
 */
import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { sdkClient, startTestEmulator } from "../support.js";
import { lastMail, info } from "../auth/support.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Every file the database keeps beside it (the WAL, its index), and the file itself. */
function databaseBytes(db: string): { file: string; bytes: Buffer }[] {
  return [db, `${db}-wal`, `${db}-shm`].filter((f) => existsSync(f)).map((file) => ({ file, bytes: readFileSync(file) }));
}

describe("mailbox entries at rest", () => {
  it("an OTP code is found in neither the database, its WAL nor a state image; the mailbox shows it and it verifies", async () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-mailbox-"));
    dirs.push(dir);
    const db = join(dir, "emulator.db");
    const contact = "at-rest@example.com";
    const emu = await startTestEmulator({ db });
    try {
      const { otpId, otpEncryptionTargetBundle } = await sdkClient(emu).initOtp({ otpType: "OTP_TYPE_EMAIL", contact, appName: "At Rest", otpLength: 9 } as never);
      const mail = await lastMail(emu, contact);
      const code = mail.otpCode!;
      expect(code).toMatch(/^[0-9A-Z]{9}$/);
      expect(mail.body).toContain(code);

      const files = databaseBytes(db);
      expect(files.map((f) => f.file)).toContain(`${db}-wal`);
      const state = await fetch(`${emu.url}/emulator/v1/state`);
      expect(state.status).toBe(200);
      files.push({ file: "state image", bytes: Buffer.from(await state.arrayBuffer()) });
      for (const { file, bytes } of files) {
        expect(bytes.includes(code), `${code} in ${file}`).toBe(false);
        expect(bytes.includes("verification code is"), `the body in ${file}`).toBe(false);
      }

      // The code searched for is the one the OTP was issued with.
      const session = generateP256KeyPair();
      const encryptedOtpBundle = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, session.publicKey, (await info(emu)).tlsFetcherPublicKey);
      expect((await sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle })).verificationToken).toBeTruthy();
    } finally {
      await emu.stop();
    }

    // Reopened under its key file: the mailbox still reads, and the file still holds no code.
    const again = await startTestEmulator({ db });
    try {
      const mail = await lastMail(again, contact);
      expect(mail.otpCode).toMatch(/^[0-9A-Z]{9}$/);
      for (const { file, bytes } of databaseBytes(db)) expect(bytes.includes(mail.otpCode!), `${mail.otpCode} in ${file}`).toBe(false);
    } finally {
      await again.stop();
    }
  });
});
