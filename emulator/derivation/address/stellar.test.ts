import { describe, expect, it } from "vitest";
import { Keypair, StrKey } from "@stellar/stellar-base";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

describe("ADDRESS_FORMAT_XLM (oracle: @stellar/stellar-base)", () => {
  it("matches Keypair.fromRawEd25519Seed(...).publicKey()", () => {
    for (const k of testKeys("ADDRESS_FORMAT_XLM")) {
      const addr = addressFor("ADDRESS_FORMAT_XLM", k.curve, k.publicKey);
      expect(addr).toBe(Keypair.fromRawEd25519Seed(Buffer.from(k.privateKey)).publicKey());
      expect(StrKey.isValidEd25519PublicKey(addr)).toBe(true);
    }
  });
});
