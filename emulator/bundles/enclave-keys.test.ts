import { describe, it, expect } from "vitest";
import { getPublicKey } from "@turnkey/crypto";
import { bytesToHex } from "@noble/hashes/utils.js";
import { enclaveKeysFromSeed, enclavePublicKeysHex, generateEnclaveKeys } from "./enclave-keys.js";

describe("enclave keys", () => {
  it("are deterministic per seed, distinct per role and per seed", () => {
    const a = enclavePublicKeysHex(enclaveKeysFromSeed(new Uint8Array(32).fill(1)));
    const b = enclavePublicKeysHex(enclaveKeysFromSeed(new Uint8Array(32).fill(1)));
    const c = enclavePublicKeysHex(enclaveKeysFromSeed(new Uint8Array(32).fill(2)));
    expect(a).toEqual(b);
    expect(new Set([a.signer, a.tlsFetcher, a.notarizer, c.signer]).size).toBe(4);
    expect(() => enclaveKeysFromSeed(new Uint8Array(8))).toThrow(/16 bytes/);
  });

  it("expose public keys as uncompressed lowercase hex matching @turnkey/crypto's derivation", () => {
    const keys = generateEnclaveKeys();
    const hex = enclavePublicKeysHex(keys);
    for (const role of ["signer", "tlsFetcher", "notarizer"] as const) {
      expect(hex[role]).toMatch(/^04[0-9a-f]{128}$/);
      expect(bytesToHex(getPublicKey(keys[role].privateKey, false))).toBe(hex[role]);
    }
  });
});
