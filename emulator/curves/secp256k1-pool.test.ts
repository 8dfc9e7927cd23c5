import { randomBytes } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { describe, expect, it } from "vitest";
import { offThreadSignatureCount, signRecoverableSecp256k1OffThread } from "./secp256k1-pool.js";

describe("secp256k1 signatures on the signing thread", () => {
  it("are @noble/curves' RFC 6979 low-S signatures with their recovery ids, many at once", async () => {
    const cases = Array.from({ length: 40 }, () => ({ digest: new Uint8Array(randomBytes(32)), key: secp256k1.utils.randomSecretKey() }));
    const before = offThreadSignatureCount();
    const signed = await Promise.all(cases.map((c) => signRecoverableSecp256k1OffThread(c.digest, c.key)));
    expect(offThreadSignatureCount() - before).toBe(40);
    for (const [i, c] of cases.entries()) {
      const expected = secp256k1.sign(c.digest, c.key, { prehash: false, lowS: true, format: "recovered" });
      expect(Buffer.concat([Uint8Array.of(signed[i]!.recovery), signed[i]!.r, signed[i]!.s]).toString("hex")).toBe(Buffer.from(expected).toString("hex"));
    }
  });

  it("rejects a key libsecp256k1 refuses, and signs the next one", async () => {
    const digest = new Uint8Array(32).fill(7);
    const [bad, good] = await Promise.allSettled([signRecoverableSecp256k1OffThread(digest, new Uint8Array(32)), signRecoverableSecp256k1OffThread(digest, secp256k1.utils.randomSecretKey())]);
    expect(bad.status).toBe("rejected");
    expect((bad as PromiseRejectedResult).reason.message).toMatch(/^secp256k1 signing failed: /);
    expect(good.status).toBe("fulfilled");
  });
});
