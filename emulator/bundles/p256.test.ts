import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { p256KeyPairFromPrivate } from "./p256.js";

describe("p256KeyPairFromPrivate", () => {
  it("computes the same uncompressed point as @noble/curves, including scalars with leading zero bytes", () => {
    const scalars = Array.from({ length: 50 }, () => p256.utils.randomSecretKey());
    scalars.push(Uint8Array.from({ length: 32 }, (_, i) => (i < 31 ? 0 : 1)), Uint8Array.from({ length: 32 }, (_, i) => (i < 3 ? 0 : i)));
    for (const sk of scalars) expect(Buffer.from(p256KeyPairFromPrivate(sk).publicKey).toString("hex")).toBe(Buffer.from(p256.getPublicKey(sk, false)).toString("hex"));
  });

  it("refuses a scalar outside the curve order", () => {
    expect(() => p256KeyPairFromPrivate(new Uint8Array(32))).toThrow(/invalid P-256 private key/);
    expect(() => p256KeyPairFromPrivate(new Uint8Array(32).fill(0xff))).toThrow(/invalid P-256 private key/);
  });
});
