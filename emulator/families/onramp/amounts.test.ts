import { describe, expect, it } from "vitest";
import { formatUnits as viemFormatUnits, parseUnits as viemParseUnits } from "viem";
import { formatUnits, parseCryptoAmount, parseFiatAmount, parseUnits, quote } from "./amounts.js";

describe("on-ramp amounts", () => {
  it("parses and formats decimal amounts exactly as viem does (independent implementation)", () => {
    for (const [v, d] of [["0", 18], ["1", 18], ["1.5", 18], ["0.000000000000000001", 18], ["123456789.123456789", 9], ["20.01", 2], ["7", 0]] as const) {
      expect(parseUnits(v, d)).toBe(viemParseUnits(v, d));
      expect(formatUnits(parseUnits(v, d), d)).toBe(viemFormatUnits(viemParseUnits(v, d), d));
    }
  });

  it("refuses what is not a plain decimal, or has too many places", () => {
    for (const bad of ["", "-1", "1e3", " 1", "1.", ".5", "01", "1,5", "0x10", "abc"]) expect(() => parseUnits(bad, 2), bad).toThrow(/decimal number/);
    expect(() => parseUnits("1.234", 2)).toThrow(/more than 2 decimal places/);
  });

  it("fiat presets must be greater than 20 (documented)", () => {
    expect(() => parseFiatAmount("20")).toThrow(/greater than 20/);
    expect(() => parseFiatAmount("19.99")).toThrow(/greater than 20/);
    expect(parseFiatAmount("20.01")).toBe(20010n);
    expect(parseFiatAmount("100")).toBe(100000n);
    expect(parseFiatAmount("25.125")).toBe(25125n); // three-decimal currencies (KWD, JOD, OMR)
    expect(() => parseFiatAmount("25.1255")).toThrow(/more than 3 decimal places/);
  });

  it("quotes at the emulated prices, rounding down to the smallest unit", () => {
    const fiat = (v: string) => parseFiatAmount(v);
    expect(quote(fiat("150"), "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH")).toBe(viemParseUnits("0.05", 18)); // 150 at 3000
    expect(quote(fiat("100"), "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH")).toBe(33_333_333_333_333_333n); // rounded down
    expect(quote(fiat("150"), "FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL")).toBe(10n ** 9n); // 150 at 150
    expect(quote(fiat("100"), "FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC")).toBe(100_000_000n);
    expect(quote(fiat("20.01"), "FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC")).toBe(40020n); // 20.01 / 50000 BTC = 0.0004002 -> 40020 sat
    expect(quote(fiat("33.333"), "FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC")).toBe(33_333_000n);
    expect(quote(fiat("21"), "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH")).toBe(viemParseUnits("0.007", 18));
  });

  it("a typed crypto amount is positive and within the coin's decimals", () => {
    expect(parseCryptoAmount("0.5", "FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL")).toBe(500_000_000n);
    expect(() => parseCryptoAmount("0", "FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL")).toThrow(/greater than 0/);
    expect(() => parseCryptoAmount("0.0000000001", "FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL")).toThrow(/more than 9 decimal places/);
  });
});
