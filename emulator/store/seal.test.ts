import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { createSealer, sealerFor } from "./seal.js";
import { openDb } from "./db.js";

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

  it("keeps one key per database unless the environment supplies one", () => {
    const db = openDb();
    const a = sealerFor(db, undefined);
    const b = sealerFor(db, undefined);
    expect(b.openText(a.seal("x"))).toBe("x");
    const envKey = randomBytes(32).toString("hex");
    expect(() => sealerFor(db, envKey).open(a.seal("x"))).toThrow();
    expect(() => sealerFor(db, "abc")).toThrow(/64 hex/);
  });
});
