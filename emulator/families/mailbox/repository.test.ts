import { afterEach, describe, expect, it } from "vitest";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "../../families.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDb(): string {
  const d = mkdtempSync(join(tmpdir(), "emu-mailbox-unit-"));
  dirs.push(d);
  return join(d, "emulator.db");
}
const onDisk = (db: string, text: string) => [db, `${db}-wal`].some((f) => existsSync(f) && readFileSync(f).includes(text));

const CODE = "Q7ZK3M9XW";
const message = { orgId: "org", contact: "a@example.com", channel: "email" as const, subject: "code", body: `Your code is ${CODE}.`, createdAt: 1, extra: { kind: "otp", otpCode: CODE } };

describe("the mailbox at rest", () => {
  it("seals what it stores and opens it when read", () => {
    const store = openStore(tempDb());
    try {
      store.mailbox.deliver(message);
      const raw = store.db.prepare("SELECT body, extra FROM mailbox").get() as { body: string; extra: string };
      expect(raw.body).not.toContain(CODE);
      expect(raw.extra).not.toContain(CODE);
      expect(store.sealer.openText(raw.body)).toBe(message.body);
      expect(store.mailbox.list()).toEqual([message]);
      expect(store.mailbox.emailsTo("org", "A@example.com")).toEqual([{ ...message, seq: 1 }]);
    } finally {
      store.close();
    }
  });

  it("a file an older emulator wrote in clear reads, and its rows are sealed on open", () => {
    const db = tempDb();
    const old = openStore(db);
    // As an older emulator stored a message: body and extras in clear.
    old.db.prepare("INSERT INTO mailbox (org_id, contact, channel, subject, body, extra, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)").run("org", message.contact, "email", "code", message.body, JSON.stringify(message.extra), 1);
    old.close();
    expect(onDisk(db, CODE)).toBe(true);

    const store = openStore(db);
    try {
      expect(onDisk(db, CODE)).toBe(false);
      expect(store.mailbox.list(message.contact)).toEqual([message]);
      expect(store.mailbox.sealClearRows()).toBe(0);
    } finally {
      store.close();
    }
    expect(onDisk(db, CODE)).toBe(false);
  });
});
