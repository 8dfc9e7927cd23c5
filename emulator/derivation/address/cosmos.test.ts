import { describe, expect, it } from "vitest";
import { encodeSecp256k1Pubkey, pubkeyToAddress } from "@cosmjs/amino";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

describe("ADDRESS_FORMAT_COSMOS / SEI (oracle: @cosmjs/amino pubkeyToAddress)", () => {
  it("cosmos1…", () => {
    for (const k of testKeys("ADDRESS_FORMAT_COSMOS")) {
      expect(addressFor("ADDRESS_FORMAT_COSMOS", k.curve, k.publicKey)).toBe(
        pubkeyToAddress(encodeSecp256k1Pubkey(k.publicKey), "cosmos"),
      );
    }
  });
  it("sei1…", () => {
    for (const k of testKeys("ADDRESS_FORMAT_SEI")) {
      expect(addressFor("ADDRESS_FORMAT_SEI", k.curve, k.publicKey)).toBe(
        pubkeyToAddress(encodeSecp256k1Pubkey(k.publicKey), "sei"),
      );
    }
  });
});
