import { describe, expect, it } from "vitest";
import { privateKeyToAddress } from "viem/accounts";
import { DEFI_OPERATOR_ADDRESS, DEFI_OPERATOR_KEY } from "./operator.js";

describe("DeFi operator key", () => {
  it("publishes the address of its private key (viem as the oracle)", () => {
    expect(DEFI_OPERATOR_ADDRESS).toBe(privateKeyToAddress(`0x${Buffer.from(DEFI_OPERATOR_KEY).toString("hex")}`));
  });
});
