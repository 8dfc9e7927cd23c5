import { describe, expect, it } from "vitest";
import { Keypair, PublicKey } from "@solana/web3.js";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

const F = "ADDRESS_FORMAT_SOLANA";

describe("ADDRESS_FORMAT_SOLANA (oracle: @solana/web3.js)", () => {
  it("matches Keypair.fromSeed(privateKey).publicKey and new PublicKey(pk)", () => {
    for (const k of testKeys(F)) {
      const addr = addressFor(F, k.curve, k.publicKey);
      expect(addr).toBe(Keypair.fromSeed(k.privateKey).publicKey.toBase58());
      expect(addr).toBe(new PublicKey(k.publicKey).toBase58());
    }
  });
});
