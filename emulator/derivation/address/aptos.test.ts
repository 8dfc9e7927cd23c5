import { describe, expect, it } from "vitest";
import { Account, Ed25519PrivateKey, PrivateKey, PrivateKeyVariants } from "@aptos-labs/ts-sdk";
import { bytesToHex } from "@noble/hashes/utils.js";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

describe("ADDRESS_FORMAT_APTOS (oracle: @aptos-labs/ts-sdk)", () => {
  it("matches Account.fromPrivateKey(...).accountAddress", () => {
    for (const k of testKeys("ADDRESS_FORMAT_APTOS")) {
      const account = Account.fromPrivateKey({ privateKey: new Ed25519PrivateKey(PrivateKey.formatPrivateKey(bytesToHex(k.privateKey), PrivateKeyVariants.Ed25519)) });
      expect(addressFor("ADDRESS_FORMAT_APTOS", k.curve, k.publicKey)).toBe(account.accountAddress.toStringLong());
    }
  });
});
