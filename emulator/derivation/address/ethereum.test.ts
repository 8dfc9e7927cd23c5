import { describe, expect, it } from "vitest";
import { bytesToHex } from "@noble/hashes/utils.js";
import { privateKeyToAccount, publicKeyToAddress } from "viem/accounts";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { deriveKey } from "../keys/derive.js";
import { addressFor } from "./index.js";
import { SEEDS, testKeys } from "./keys.fixture.js";

const F = "ADDRESS_FORMAT_ETHEREUM";

describe("ADDRESS_FORMAT_ETHEREUM (oracle: viem)", () => {
  it("matches viem privateKeyToAccount / publicKeyToAddress (EIP-55)", () => {
    for (const k of testKeys(F)) {
      const addr = addressFor(F, k.curve, k.publicKey);
      expect(addr).toBe(privateKeyToAccount(`0x${bytesToHex(k.privateKey)}`).address);
      const uncompressed = secp256k1.Point.fromBytes(k.publicKey).toBytes(false);
      expect(addr).toBe(publicKeyToAddress(`0x${bytesToHex(uncompressed)}`));
      // accepts the 65-byte form too
      expect(addressFor(F, k.curve, uncompressed)).toBe(addr);
    }
  });

  it("Anvil / Hardhat account 0 of the `test … junk` mnemonic", () => {
    const { publicKey } = deriveKey(SEEDS[1]!, "CURVE_SECP256K1", "m/44'/60'/0'/0/0");
    expect(addressFor(F, "CURVE_SECP256K1", publicKey)).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
  });
});
