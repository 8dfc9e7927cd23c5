import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { compressedP256Hex, derivedP256KeyPair, p256KeyPairFromPrivate, parseP256PublicKey } from "./p256.js";

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

describe("derivedP256KeyPair", () => {
  it("is noble's HKDF-SHA256 (48 bytes) reduced into a scalar, and its point", () => {
    for (let i = 0; i < 10; i++) {
      const ikm = p256.utils.randomSecretKey();
      const expected = p256.utils.randomSecretKey(hkdf(sha256, ikm, utf8ToBytes(`salt ${i}`), utf8ToBytes(`role ${i}`), 48));
      const pair = derivedP256KeyPair(ikm, `salt ${i}`, `role ${i}`);
      expect(Buffer.from(pair.privateKey).toString("hex")).toBe(Buffer.from(expected).toString("hex"));
      expect(Buffer.from(pair.publicKey).toString("hex")).toBe(Buffer.from(p256.getPublicKey(expected, false)).toString("hex"));
    }
  });
});
