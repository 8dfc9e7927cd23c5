import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { bip32DerivePath, bip32Master } from "./bip32.js";
import { parsePath } from "./path.js";
import { slip10Master } from "./slip10.js";
import type { HdNode } from "./node.js";
import { BIP32_VECTORS, SLIP10_VECTORS } from "./vectors.fixture.js";

function nodeAt(curve: "secp256k1" | "nist256p1" | "ed25519", seed: string, path: string): HdNode {
  const root = curve === "secp256k1" ? bip32Master(hexToBytes(seed)) : slip10Master(curve, hexToBytes(seed));
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

describe("BIP-32 published test vectors (extended keys)", () => {
  BIP32_VECTORS.forEach((v, n) => {
    for (const [path, xpub, xprv] of v.chains) {
      it(`vector ${n + 1} ${path}`, () => {
        const node = bip32DerivePath(bip32Master(hexToBytes(v.seed)), path);
        expect(node.xprv).toBe(xprv);
        expect(node.xpub).toBe(xpub);
      });
    }
  });
});
