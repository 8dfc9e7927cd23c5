import { describe, expect, it } from "vitest";
import { bytesToHex } from "@noble/hashes/utils.js";
import { deriveAddress } from "ripple-keypairs";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

describe("ADDRESS_FORMAT_XRP (oracle: ripple-keypairs deriveAddress)", () => {
  it("matches deriveAddress(compressed public key)", () => {
    for (const k of testKeys("ADDRESS_FORMAT_XRP")) {
      const addr = addressFor("ADDRESS_FORMAT_XRP", k.curve, k.publicKey);
      expect(addr).toBe(deriveAddress(bytesToHex(k.publicKey).toUpperCase()));
      expect(addr).toMatch(/^r/);
    }
  });
});
