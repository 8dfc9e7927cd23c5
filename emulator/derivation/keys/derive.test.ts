import { describe, expect, it } from "vitest";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { HDKey } from "@scure/bip32";
import { mnemonicToSeedSync } from "@scure/bip39";
import { Lru } from "../../core/lib/lru.js";
import { deriveKey as deriveUncached, holdsNodesOf, type DeriveOptions } from "./derive.js";
import type { HdNode } from "./node.js";

const SEED1 = hexToBytes("000102030405060708090a0b0c0d0e0f");
const JUNK = mnemonicToSeedSync("test test test test test test test test test test test junk");

// Most cases run through a node cache, as the keyring derives.
const nodes = new Lru<string, HdNode>(4096);
const deriveKey = (seed: Uint8Array, curve: Parameters<typeof deriveUncached>[1], path: string, opts: DeriveOptions = {}) =>
  deriveUncached(seed, curve, path, { cache: { nodes, scope: "w" }, ...opts });

describe("deriveKey", () => {
  it("secp256k1 equals @scure/bip32 HDKey for sibling accounts, with and without cache", () => {
    nodes.clear();
    const root = HDKey.fromMasterSeed(JUNK);
    for (let i = 0; i < 5; i++) {
      const path = `m/44'/60'/0'/0/${i}`;
      const expected = root.derive(path);
      const cached = deriveKey(JUNK, "CURVE_SECP256K1", path);
      const uncached = deriveUncached(JUNK, "CURVE_SECP256K1", path);
      expect(bytesToHex(cached.privateKey)).toBe(bytesToHex(expected.privateKey!));
      expect(bytesToHex(cached.publicKey)).toBe(bytesToHex(expected.publicKey!));
      expect(bytesToHex(uncached.privateKey)).toBe(bytesToHex(expected.privateKey!));
    }
    // Anvil / Hardhat account 0 private key.
    expect(bytesToHex(deriveKey(JUNK, "CURVE_SECP256K1", "m/44'/60'/0'/0/0").privateKey)).toBe(
      "ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80",
    );
  });

  it("returns copies that cannot corrupt the cache", () => {
    const a = deriveKey(JUNK, "CURVE_SECP256K1", "m/44'/60'/0'/0/0");
    a.privateKey.fill(0);
    a.publicKey.fill(0);
    const b = deriveKey(JUNK, "CURVE_SECP256K1", "m/44'/60'/0'/0/0");
    expect(bytesToHex(b.privateKey)).toBe("ac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80");
  });

  it("keeps seeds and curves apart in the cache", () => {
    const p = "m/0'";
    const k1 = bytesToHex(deriveKey(SEED1, "CURVE_SECP256K1", p).privateKey);
    const k2 = bytesToHex(deriveKey(SEED1, "CURVE_P256", p).privateKey);
    const k3 = bytesToHex(deriveKey(SEED1, "CURVE_ED25519", p).privateKey);
    // SLIP-10 vector 1, chain m/0H for each curve.
    expect(k1).toBe("edb2e14f9ee77d26dd93b4ecede8d16ed408ce149b6cd80b0715a2d911a0afea");
    expect(k2).toBe("6939694369114c67917a182c59ddb8cafc3004e63ca5d3b84403ba8613debc0c");
    expect(k3).toBe("68e0fe46dfb67e368c75379acec591dad19df3cde26e63b93a8e704f1dade7a3");
  });

  it("public key sizes: 33 bytes compressed for secp256k1 / P-256, 32 for ed25519", () => {
    expect(deriveKey(SEED1, "CURVE_SECP256K1", "m/1").publicKey).toHaveLength(33);
    expect(deriveKey(SEED1, "CURVE_P256", "m/1").publicKey).toHaveLength(33);
    expect(deriveKey(SEED1, "CURVE_ED25519", "m/1'").publicKey).toHaveLength(32);
  });

  it("ed25519: non-hardened segments derive as hardened by default, or are rejected on request", () => {
    const soft = deriveKey(SEED1, "CURVE_ED25519", "m/0/1/2");
    const hard = deriveKey(SEED1, "CURVE_ED25519", "m/0'/1'/2'");
    // SLIP-10 vector 1 ed25519, chain m/0H/1H/2H.
    expect(bytesToHex(hard.privateKey)).toBe("92a5b23c0b8a99e37d07df3fb9966917f5d06e02ddbd909c7e184371463e9fc9");
    expect(bytesToHex(soft.privateKey)).toBe(bytesToHex(hard.privateKey));
    expect(() => deriveKey(SEED1, "CURVE_ED25519", "m/0'/1", { ed25519NonHardened: "reject" })).toThrow(
      /segment 2 \("1"\) must be hardened for CURVE_ED25519/,
    );
  });

  it("rejects an unknown curve and a bad path with 400s", () => {
    expect(() => deriveKey(SEED1, "CURVE_X" as never, "m/0")).toThrow(/invalid curve/);
    expect(() => deriveKey(SEED1, "CURVE_SECP256K1", "m/0/zz")).toThrow(/segment 2/);
  });

  it("keeps no module state: only the cache it is handed holds nodes, and only of its seed", () => {
    nodes.clear();
    const other = new Lru<string, HdNode>(16);
    deriveUncached(SEED1, "CURVE_SECP256K1", "m/0'/1");
    expect(nodes.size).toBe(0);
    deriveUncached(SEED1, "CURVE_SECP256K1", "m/0'/1", { cache: { nodes: other, scope: "w" } });
    expect(other.size).toBe(3); // m, m/0', m/0'/1
    expect(holdsNodesOf(other, SEED1)).toBe(true);
    expect(holdsNodesOf(other, JUNK)).toBe(false);
    expect(holdsNodesOf(nodes, SEED1)).toBe(false);
  });
});
