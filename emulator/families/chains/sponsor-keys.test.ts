import { describe, expect, it } from "vitest";
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { privateKeyToAddress } from "viem/accounts";
import { EVM_PAYMASTER_ADDRESS, EVM_PAYMASTER_KEY, SOLANA_FEE_PAYER_ADDRESS, SOLANA_FEE_PAYER_KEY, SOLANA_FEE_PAYER_PUBLIC_KEY } from "./sponsor-keys.js";

describe("gas-station keys", () => {
  it("publish the public halves of their private keys (viem and noble as oracles)", () => {
    expect(EVM_PAYMASTER_ADDRESS).toBe(privateKeyToAddress(`0x${Buffer.from(EVM_PAYMASTER_KEY).toString("hex")}`));
    expect(Buffer.from(SOLANA_FEE_PAYER_PUBLIC_KEY).toString("hex")).toBe(Buffer.from(ed25519.getPublicKey(SOLANA_FEE_PAYER_KEY)).toString("hex"));
    expect(SOLANA_FEE_PAYER_ADDRESS).toBe(base58.encode(ed25519.getPublicKey(SOLANA_FEE_PAYER_KEY)));
  });
});
