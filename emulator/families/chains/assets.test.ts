import { describe, expect, it } from "vitest";
import { parseCaip19 } from "./assets.js";

describe("parseCaip19", () => {
  it("normalizes native coins, ERC-20s (lowercase) and SPL mints", () => {
    expect(parseCaip19("eip155:8453/slip44:60", "f")).toEqual({ caip19: "eip155:8453/slip44:60", caip2: "eip155:8453", namespace: "eip155", native: true });
    expect(parseCaip19("eip155:8453/erc20:0x833589fCD6EDB6E08f4c7C32D4f71b54bdA02913", "f")).toMatchObject({ caip19: "eip155:8453/erc20:0x833589fcd6edb6e08f4c7c32d4f71b54bda02913", native: false, token: "0x833589fcd6edb6e08f4c7c32d4f71b54bda02913" });
    expect(parseCaip19("solana:devnet/token:4zMMC9srt5Ri5X14GAgXhaHii3GnPAEERYPJgZJDncDU", "f")).toMatchObject({ caip2: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", native: false });
  });

  it("refuses malformed ids and other coins' slip44 numbers, naming the field", () => {
    for (const bad of ["USDC", "eip155:8453", "eip155:8453/erc20:0x12", "eip155:8453/slip44:501", "eip155:8453/erc721:0x833589fCD6EDB6E08f4c7C32D4f71b54bdA02913", "solana:devnet/erc20:0x833589fCD6EDB6E08f4c7C32D4f71b54bdA02913"]) {
      expect(() => parseCaip19(bad, "parameters.inputToken"), bad).toThrow(expect.objectContaining({ code: 3, details: expect.arrayContaining([expect.objectContaining({ fieldViolations: [expect.objectContaining({ field: "parameters.inputToken" })] })]) }));
    }
  });
});
