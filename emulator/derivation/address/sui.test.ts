import { describe, expect, it } from "vitest";
import { Ed25519Keypair, Ed25519PublicKey } from "@mysten/sui/keypairs/ed25519";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

describe("ADDRESS_FORMAT_SUI (oracle: @mysten/sui)", () => {
  it("matches Ed25519PublicKey.toSuiAddress and Ed25519Keypair.fromSecretKey", () => {
    for (const k of testKeys("ADDRESS_FORMAT_SUI")) {
      const addr = addressFor("ADDRESS_FORMAT_SUI", k.curve, k.publicKey);
      expect(addr).toBe(new Ed25519PublicKey(k.publicKey).toSuiAddress());
      expect(addr).toBe(Ed25519Keypair.fromSecretKey(k.privateKey).toSuiAddress());
    }
  });
});
