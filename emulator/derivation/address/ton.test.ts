import { describe, expect, it } from "vitest";
import { WalletContractV3R2, WalletContractV4, WalletContractV5R1 } from "@ton/ton";
import { addressFor } from "./index.js";
import { testKeys } from "./keys.fixture.js";

const CASES = [
  ["ADDRESS_FORMAT_TON_V3R2", WalletContractV3R2],
  ["ADDRESS_FORMAT_TON_V4R2", WalletContractV4],
  ["ADDRESS_FORMAT_TON_V5R1", WalletContractV5R1],
] as const;

describe("ADDRESS_FORMAT_TON_* (oracle: @ton/ton wallet contracts, workchain 0, defaults)", () => {
  for (const [format, Contract] of CASES) {
    it(format, () => {
      for (const k of testKeys(format)) {
        const wallet = Contract.create({ workchain: 0, publicKey: Buffer.from(k.publicKey) });
        const addr = addressFor(format, k.curve, k.publicKey);
        expect(addr).toBe(wallet.address.toString()); // url-safe, bounceable, mainnet: "EQ…"
        expect(addr).toMatch(/^EQ/);
      }
    });
  }
});
