import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { compressedP256Hex, p256KeyPairFromPrivate, parseP256PublicKey } from "./p256.js";

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

describe("parseP256PublicKey / compressedP256Hex", () => {
  it("give noble's forms of a key given in either form, as bytes or hex", () => {
    const sk = p256.utils.randomSecretKey();
    const [compressed, uncompressed] = [p256.getPublicKey(sk, true), p256.getPublicKey(sk, false)];
    const hex = (b: Uint8Array) => Buffer.from(b).toString("hex");
    for (const input of [compressed, uncompressed, hex(compressed), hex(uncompressed)]) {
      expect(hex(parseP256PublicKey(input))).toBe(hex(uncompressed));
      expect(compressedP256Hex(input)).toBe(hex(compressed));
    }
  });

  it("refuses what is not a point, naming the field", () => {
    const offCurve = p256.getPublicKey(p256.utils.randomSecretKey(), false);
    offCurve[64] ^= 1;
    for (const bad of [offCurve, new Uint8Array(33), new Uint8Array(64), "zz"]) expect(() => parseP256PublicKey(bad, "targetPublicKey")).toThrow(/targetPublicKey/);
  });
});
