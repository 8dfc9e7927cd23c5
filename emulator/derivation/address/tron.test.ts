import { describe, expect, it } from "vitest";
import { bytesToHex } from "@noble/hashes/utils.js";
import { TronWeb } from "tronweb";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

describe("ADDRESS_FORMAT_TRON (oracle: tronweb)", () => {
  it("matches TronWeb.address.fromPrivateKey", () => {
    for (const k of testKeys("ADDRESS_FORMAT_TRON")) {
      const addr = addressFor("ADDRESS_FORMAT_TRON", k.curve, k.publicKey);
      expect(addr).toBe(TronWeb.address.fromPrivateKey(bytesToHex(k.privateKey)));
      expect(addr).toMatch(/^T/);
    }
  });
});
