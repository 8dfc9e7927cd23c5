import { describe, expect, it } from "vitest";
import { payments, type Network } from "bitcoinjs-lib";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

// Dogecoin network parameters (as in Dogecoin Core's chainparams).
const DOGE_MAINNET: Network = {
  messagePrefix: "\x19Dogecoin Signed Message:\n",
  bech32: "",
  bip32: { public: 0x02facafd, private: 0x02fac398 },
  pubKeyHash: 0x1e,
  scriptHash: 0x16,
  wif: 0x9e,
};
const DOGE_TESTNET: Network = {
  messagePrefix: "\x19Dogecoin Signed Message:\n",
  bech32: "",
  bip32: { public: 0x043587cf, private: 0x04358394 },
  pubKeyHash: 0x71,
  scriptHash: 0xc4,
  wif: 0xf1,
};

describe("ADDRESS_FORMAT_DOGE_* (oracle: bitcoinjs-lib p2pkh with Dogecoin params)", () => {
  it("mainnet D…", () => {
    for (const k of testKeys("ADDRESS_FORMAT_DOGE_MAINNET")) {
      const addr = addressFor("ADDRESS_FORMAT_DOGE_MAINNET", k.curve, k.publicKey);
      expect(addr).toBe(payments.p2pkh({ pubkey: Buffer.from(k.publicKey), network: DOGE_MAINNET }).address);
      expect(addr).toMatch(/^D/);
    }
  });
  it("testnet n…/m…", () => {
    for (const k of testKeys("ADDRESS_FORMAT_DOGE_TESTNET")) {
      const addr = addressFor("ADDRESS_FORMAT_DOGE_TESTNET", k.curve, k.publicKey);
      expect(addr).toBe(payments.p2pkh({ pubkey: Buffer.from(k.publicKey), network: DOGE_TESTNET }).address);
      expect(addr).toMatch(/^n/);
    }
  });
});
