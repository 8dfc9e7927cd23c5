import { describe, expect, it } from "vitest";
import { checkChainAddress, checkEvmAddress } from "./chain-address.js";

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as { message: string; toJSON(): { details: { fieldViolations?: { field: string }[] }[] } };
  }
  throw new Error("not refused");
};

describe("chain addresses", () => {
  it("an EVM address comes back checksummed (EIP-55) from any casing", () => {
    expect(checkEvmAddress("0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266")).toBe("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266");
    expect(checkChainAddress("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM", "owner")).toBe("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM");
  });
  it("a refusal names the field by its path and, in the message, by its own name", () => {
    const e = refusal(() => checkEvmAddress("0x1234", "parameters.calls[2].to"));
    expect(e.message).toMatch(/^to must be a 0x-prefixed 20-byte Ethereum address, got "0x1234"/);
    expect(JSON.stringify(e.toJSON())).toContain("parameters.calls[2].to");
    expect(refusal(() => checkChainAddress("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "0OIl", "asset")).message).toMatch(/^asset must be a base58 Solana address/);
    expect(refusal(() => checkChainAddress("eip155:1", "nope")).message).toMatch(/^address must be/);
  });
});
