import { describe, expect, it } from "vitest";
import { hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { combineShares, splitSecret } from "./shamir.js";

describe("Shamir sharing over GF(256), QuorumOS's share format", () => {
  it("recombines the 2-of-3 shares QuorumOS pins in its own test (qos_crypto shamir.rs)", () => {
    const shares = ["01661fc0cc265daa4e7bde354c281dcc23a80c590249", "027bb5fb26d326e0fc421cf604e495e3d3e4bd24ab0e", "0370d31b89800f2f9255abb73ca0ed0f8329d20fcc33"].map(hexToBytes);
    const expected = utf8ToBytes("my cute little secret");
    for (const pair of [[0, 1], [1, 2], [0, 2], [2, 0]]) expect(combineShares(pair.map((i) => shares[i]!))).toEqual(expected);
    expect(combineShares(shares)).toEqual(expected);
  });

  it("any threshold of the shares recombine the secret; fewer do not", () => {
    const secret = Uint8Array.from({ length: 32 }, (_, i) => (i * 37 + 11) & 0xff);
    const shares = splitSecret(secret, 5, 3);
    expect(shares.map((s) => s[0])).toEqual([1, 2, 3, 4, 5]);
    for (const combo of [[0, 1, 2], [4, 2, 0], [1, 3, 4], [0, 1, 2, 3, 4]]) expect(combineShares(combo.map((i) => shares[i]!))).toEqual(secret);
    expect(combineShares([shares[0]!, shares[3]!])).not.toEqual(secret);
  });

  it("pinned coefficients give the polynomial's values", () => {
    // f(x) = 0x42 + 0x01·x  → f(1)=0x43, f(2)=0x40 (xor arithmetic).
    const shares = splitSecret(Uint8Array.of(0x42), 2, 2, () => Uint8Array.of(1));
    expect(shares).toEqual([Uint8Array.of(1, 0x43), Uint8Array.of(2, 0x40)]);
  });

  it("refuses what QuorumOS refuses", () => {
    expect(() => splitSecret(Uint8Array.of(1), 3, 1)).toThrow(/2 <= threshold/);
    expect(() => splitSecret(Uint8Array.of(1), 2, 3)).toThrow(/2 <= threshold/);
    expect(() => splitSecret(Uint8Array.of(1), 256, 2)).toThrow(/255/);
    expect(() => combineShares([Uint8Array.of(1, 2), Uint8Array.of(1, 3)])).toThrow(/distinct/);
  });
});
