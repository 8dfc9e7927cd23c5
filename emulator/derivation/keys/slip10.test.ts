import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { randomBytes } from "node:crypto";
import { HDKey } from "@scure/bip32";
import { parsePath } from "./path.js";
import { slip10Master } from "./slip10.js";
import type { HdNode } from "./node.js";
import { BIP32_VECTORS, SLIP10_VECTORS } from "./vectors.fixture.js";

function nodeAt(curve: "secp256k1" | "nist256p1" | "ed25519", seed: string, path: string): HdNode {
  const root = slip10Master(curve, hexToBytes(seed));
  return parsePath(path).reduce<HdNode>((n, i) => n.derive(i), root);
}

describe("SLIP-0010 published test vectors", () => {
  for (const v of SLIP10_VECTORS) {
    describe(v.name, () => {
      for (const [path, chainCode, priv, pub] of v.chains) {
        it(path, () => {
          const node = nodeAt(v.curve, v.seed, path);
          expect(bytesToHex(node.chainCode)).toBe(chainCode);
          expect(bytesToHex(node.privateKey)).toBe(priv);
          const expectedPub = v.curve === "ed25519" ? pub.slice(2) : pub; // SLIP-10 prints ed25519 keys as 00||key
          expect(bytesToHex(node.publicKey)).toBe(expectedPub);
        });
      }
    });
  }

  it("ed25519 refuses non-hardened children", () => {
    const root = slip10Master("ed25519", hexToBytes("000102030405060708090a0b0c0d0e0f"));
    expect(() => root.derive(0)).toThrow(/hardened/);
  });
});

describe("BIP-32 published test vectors (extended keys, decoded by @scure/bip32)", () => {
  BIP32_VECTORS.forEach((v, n) => {
    for (const [path, xpub, xprv] of v.chains) {
      it(`vector ${n + 1} ${path}`, () => {
        const node = nodeAt("secp256k1", v.seed, path);
        const priv = HDKey.fromExtendedKey(xprv);
        expect(bytesToHex(node.privateKey)).toBe(bytesToHex(priv.privateKey!));
        expect(bytesToHex(node.chainCode)).toBe(bytesToHex(priv.chainCode!));
        expect(bytesToHex(node.publicKey)).toBe(bytesToHex(HDKey.fromExtendedKey(xpub).publicKey!));
      });
    }
  });
});

describe("secp256k1 derivation agrees with @scure/bip32 on random seeds and paths", () => {
  it("24 seeds, mixed hardened and normal segments", () => {
    for (let i = 0; i < 24; i++) {
      const seed = randomBytes(16 + ((i * 13) % 49));
      const segments = Array.from({ length: 1 + (i % 6) }, (_, d) => `${(i * 7919 + d * 104729) % 2 ** 31}${(i + d) % 2 ? "'" : ""}`);
      const path = `m/${segments.join("/")}`;
      const ours = nodeAt("secp256k1", bytesToHex(seed), path);
      const oracle = HDKey.fromMasterSeed(seed).derive(path);
      expect(bytesToHex(ours.privateKey), path).toBe(bytesToHex(oracle.privateKey!));
      expect(bytesToHex(ours.chainCode), path).toBe(bytesToHex(oracle.chainCode!));
      expect(bytesToHex(ours.publicKey), path).toBe(bytesToHex(oracle.publicKey!));
    }
  });
});
