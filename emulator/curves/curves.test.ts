/** The OpenSSL / libsecp256k1 public keys and signatures agree with @noble/curves (the oracle) and RFC 8032. */
import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { schnorr, secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { ed25519PublicKey } from "./ed25519.js";
import { compressPoint, publicKeyOf, weierstrassPoint } from "./index.js";
import { p256PublicKey } from "./p256.js";
import { opensslPoint, opensslPublicKey } from "./openssl.js";
import { opensslXOnlyTweakAdd, secp256k1PublicKey, secp256k1XOnlyTweakAdd, signRecoverableSecp256k1 } from "./secp256k1.js";

const keys = (curve: { utils: { randomSecretKey(): Uint8Array } }, n = 50) => Array.from({ length: n }, () => curve.utils.randomSecretKey());

describe("secp256k1 (libsecp256k1)", () => {
  // The first keys of a process go through OpenSSL until libsecp256k1 is loaded (secp256k1.ts): a signature loads it,
  // so that what follows tests libsecp256k1 whichever tests ran before.
  beforeAll(() => void signRecoverableSecp256k1(new Uint8Array(32).fill(7), new Uint8Array(32).fill(1)));

  it("public keys equal noble's, including the extremes 1 and n-1", () => {
    const nMinus1 = hexToBytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140");
    const one = hexToBytes("00".repeat(31) + "01");
    for (const k of [...keys(secp256k1), one, nMinus1]) expect(bytesToHex(secp256k1PublicKey(k))).toBe(bytesToHex(secp256k1.getPublicKey(k, true)));
  });
  it("refuses 0 and n", () => {
    expect(() => secp256k1PublicKey(new Uint8Array(32))).toThrow();
    expect(() => secp256k1PublicKey(hexToBytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"))).toThrow();
  });
  it("recoverable signatures equal noble's (RFC 6979, low-S) and recover to the key", () => {
    for (const k of keys(secp256k1, 20)) {
      const digest = randomBytes(32);
      const ours = signRecoverableSecp256k1(digest, k);
      const theirs = secp256k1.sign(digest, k, { prehash: false, format: "recovered" });
      expect(bytesToHex(Uint8Array.of(ours.recovery, ...ours.r, ...ours.s))).toBe(bytesToHex(theirs));
    }
  });
});

describe("P-256 (OpenSSL)", () => {
  it("public keys equal noble's", () => {
    for (const k of keys(p256)) expect(bytesToHex(p256PublicKey(k))).toBe(bytesToHex(p256.getPublicKey(k, true)));
  });
});

describe("Ed25519 (OpenSSL)", () => {
  it("RFC 8032 test 1", () => {
    const seed = hexToBytes("9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60");
    expect(bytesToHex(ed25519PublicKey(seed))).toBe("d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a");
  });
  it("public keys equal noble's", () => {
    for (const k of keys(ed25519)) expect(bytesToHex(ed25519PublicKey(k))).toBe(bytesToHex(ed25519.getPublicKey(k)));
  });
  it("refuses a key that is not 32 bytes", () => {
    expect(() => ed25519PublicKey(new Uint8Array(31))).toThrow(/32 bytes/);
  });
});

describe("secp256k1 x-only tweak (BIP-341)", () => {
  it("equals noble's lift_x(P) + t*G for random keys and tweaks, through OpenSSL + addition and through libsecp256k1", () => {
    for (const k of keys(secp256k1, 20)) {
      const x = secp256k1.getPublicKey(k, true).subarray(1);
      const t = secp256k1.utils.randomSecretKey();
      const expected = bytesToHex(schnorr.utils.lift_x(BigInt(`0x${bytesToHex(x)}`)).add(secp256k1.Point.BASE.multiply(BigInt(`0x${bytesToHex(t)}`))).toBytes(true).subarray(1));
      expect(bytesToHex(secp256k1XOnlyTweakAdd(x, t))).toBe(expected);
      expect(bytesToHex(opensslXOnlyTweakAdd(x, t)!)).toBe(expected);
    }
  });
  it("through OpenSSL refuses an x that is no point's and a tweak >= n, and a zero tweak leaves the key", () => {
    const x = secp256k1.getPublicKey(secp256k1.utils.randomSecretKey(), true).subarray(1);
    expect(opensslXOnlyTweakAdd(hexToBytes("ff".repeat(32)), hexToBytes("00".repeat(31) + "01"))).toBeNull(); // x >= p
    expect(opensslXOnlyTweakAdd(x, hexToBytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"))).toBeNull();
    expect(bytesToHex(opensslXOnlyTweakAdd(x, new Uint8Array(32))!)).toBe(bytesToHex(x));
  });
});

describe("secp256k1 public keys through OpenSSL (before libsecp256k1 is loaded)", () => {
  it("equal noble's, compressed and uncompressed, and refuse 0 and n", () => {
    for (const k of keys(secp256k1, 30)) {
      expect(bytesToHex(opensslPublicKey("secp256k1", k, true)!)).toBe(bytesToHex(secp256k1.getPublicKey(k, true)));
      expect(bytesToHex(opensslPublicKey("secp256k1", k, false)!)).toBe(bytesToHex(secp256k1.getPublicKey(k, false)));
    }
    expect(opensslPublicKey("secp256k1", new Uint8Array(32), true)).toBeNull();
    expect(opensslPublicKey("secp256k1", hexToBytes("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141"), true)).toBeNull();
    expect(bytesToHex(opensslPublicKey("secp256k1", hexToBytes("00".repeat(31) + "01"), true)!)).toBe(bytesToHex(secp256k1.Point.BASE.toBytes(true)));
  });
});

describe("P-256 uncompressed (OpenSSL)", () => {
  it("equals noble's uncompressed point", () => {
    for (const k of keys(p256, 20)) expect(bytesToHex(p256PublicKey(k, false))).toBe(bytesToHex(p256.getPublicKey(k, false)));
  });
});

describe("publicKeyOf (any curve)", () => {
  it("matches noble for each curve, compressed and uncompressed", () => {
    const k = secp256k1.utils.randomSecretKey();
    expect(bytesToHex(publicKeyOf("CURVE_SECP256K1", k, false))).toBe(bytesToHex(secp256k1.getPublicKey(k, false)));
    expect(bytesToHex(publicKeyOf("CURVE_SECP256K1", k))).toBe(bytesToHex(secp256k1.getPublicKey(k, true)));
    const q = p256.utils.randomSecretKey();
    expect(bytesToHex(publicKeyOf("CURVE_P256", q, false))).toBe(bytesToHex(p256.getPublicKey(q, false)));
    const e = ed25519.utils.randomSecretKey();
    expect(bytesToHex(publicKeyOf("CURVE_ED25519", e))).toBe(bytesToHex(ed25519.getPublicKey(e)));
  });
});

describe("compressPoint", () => {
  it("gives noble's compressed form of secp256k1 and P-256 points of both y parities", () => {
    for (const [curve, c] of [["CURVE_SECP256K1", secp256k1], ["CURVE_P256", p256]] as const) {
      for (const k of keys(c, 20)) expect(bytesToHex(compressPoint(publicKeyOf(curve, k, false)))).toBe(bytesToHex(c.getPublicKey(k, true)));
    }
  });
});

describe("weierstrassPoint (SEC1 decoding: libsecp256k1, OpenSSL)", () => {
  const curves = [
    ["CURVE_SECP256K1", secp256k1],
    ["CURVE_P256", p256],
  ] as const;
  it.each(curves)("%s: both forms of random points equal noble's, from either input form", (name, noble) => {
    for (const k of keys(noble, 25)) {
      const compressed = noble.getPublicKey(k, true);
      const uncompressed = noble.getPublicKey(k, false);
      for (const input of [compressed, uncompressed]) {
        expect(bytesToHex(weierstrassPoint(name, input, true)!)).toBe(bytesToHex(compressed));
        expect(bytesToHex(weierstrassPoint(name, input, false)!)).toBe(bytesToHex(uncompressed));
      }
    }
  });
  it.each(curves)("%s: bytes noble refuses as a point are refused (null)", (name, noble) => {
    const refusedByNoble = (bytes: Uint8Array) => {
      try {
        noble.Point.fromBytes(bytes);
        return false;
      } catch {
        return true;
      }
    };
    const valid = noble.getPublicKey(keys(noble, 1)[0]!, false);
    const offCurve = Uint8Array.from(valid);
    offCurve[64] ^= 1; // y changed: not on the curve
    const candidates = [offCurve, Uint8Array.of(5, ...valid.subarray(1, 33)), Uint8Array.of(4, ...valid.subarray(1, 33)), new Uint8Array(33), new Uint8Array(65), valid.subarray(0, 64)];
    // Random x coordinates: about half are not the x of any point.
    for (let i = 0; i < 40; i++) candidates.push(Uint8Array.of(2 + (i & 1), ...randomBytes(32)));
    // The 65-byte "hybrid" form (06/07), which OpenSSL and libsecp256k1 would read.
    candidates.push(Uint8Array.of(6 | (valid[64]! & 1), ...valid.subarray(1)));
    for (const bytes of candidates) expect(weierstrassPoint(name, bytes, true) === null).toBe(refusedByNoble(bytes));
    // secp256k1 decodes through OpenSSL before libsecp256k1 is loaded and through libsecp256k1 after: the OpenSSL path directly.
    const openssl = name === "CURVE_SECP256K1" ? "secp256k1" : "prime256v1";
    for (const bytes of [...candidates, valid]) expect(opensslPoint(openssl, bytes, false) === null).toBe(refusedByNoble(bytes));
    expect(bytesToHex(opensslPoint(openssl, valid, true)!)).toBe(bytesToHex(noble.Point.fromBytes(valid).toBytes(true)));
  });
});
