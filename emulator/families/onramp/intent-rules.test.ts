import { describe, expect, it } from "vitest";
import { TurnkeyError } from "../../core/errors.js";
import { checkInitIntent, type InitIntent } from "./intent-rules.js";
import { COINS, NETWORKS, PAYMENT_METHODS, deliveryTarget, type CryptoCurrency, type Network } from "./catalog.js";

const EVM = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const SOL_ADDR = "11111111111111111111111111111111";
const BTC_ADDR = "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4";
const ADDRESS: Record<Network, string> = {
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN: BTC_ADDR,
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM: EVM,
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE: EVM,
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA: SOL_ADDR,
};

/** The field a refusal names (its BadRequest field violation). */
function refusedField(p: InitIntent): string | undefined {
  try {
    checkInitIntent(p);
    return undefined;
  } catch (e) {
    expect(e).toBeInstanceOf(TurnkeyError);
    const body = (e as TurnkeyError).toJSON() as { code: number; details: { fieldViolations?: { field: string }[] }[] };
    expect(body.code).toBe(3);
    return body.details.flatMap((d) => d.fieldViolations ?? []).map((v) => v.field)[0];
  }
}

const intent = (over: Partial<InitIntent> = {}): InitIntent => ({
  onrampProvider: "FIAT_ON_RAMP_PROVIDER_MOONPAY",
  walletAddress: EVM,
  network: "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM",
  cryptoCurrencyCode: "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH",
  ...over,
});

describe("init_fiat_on_ramp intent rules", () => {
  it("every coin/network pair: accepted exactly where the coin is sold", () => {
    const accepted: string[] = [];
    for (const network of Object.keys(NETWORKS) as Network[]) {
      for (const coin of Object.keys(COINS) as CryptoCurrency[]) {
        const field = refusedField(intent({ network, cryptoCurrencyCode: coin, walletAddress: ADDRESS[network] }));
        if (field === undefined) accepted.push(`${coin.slice(29)}@${network.slice(32)}`);
        else expect(field).toBe("parameters.cryptoCurrencyCode");
      }
    }
    expect(accepted.sort()).toEqual(["BTC@BITCOIN", "ETH@BASE", "ETH@ETHEREUM", "SOL@SOLANA", "USDC@BASE", "USDC@ETHEREUM", "USDC@SOLANA"]);
  });

  it("payment methods: the shared ones for both providers, the others for their own only", () => {
    const moonpay = new Set(PAYMENT_METHODS.FIAT_ON_RAMP_PROVIDER_MOONPAY);
    const coinbase = new Set(PAYMENT_METHODS.FIAT_ON_RAMP_PROVIDER_COINBASE);
    for (const m of new Set([...moonpay, ...coinbase])) {
      expect(refusedField(intent({ paymentMethod: m }))).toBe(moonpay.has(m) ? undefined : "parameters.paymentMethod");
      expect(refusedField(intent({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_COINBASE", paymentMethod: m }))).toBe(coinbase.has(m) ? undefined : "parameters.paymentMethod");
    }
    expect([...moonpay].filter((m) => coinbase.has(m)).sort()).toEqual(["FIAT_ON_RAMP_PAYMENT_METHOD_APPLE_PAY", "FIAT_ON_RAMP_PAYMENT_METHOD_CREDIT_DEBIT_CARD"]);
  });

  it("amount, country, subdivision and URL-signing rules name their fields", () => {
    expect(refusedField(intent({ fiatCurrencyAmount: "20.00" }))).toBe("parameters.fiatCurrencyAmount");
    expect(refusedField(intent({ fiatCurrencyAmount: "20.01" }))).toBeUndefined();
    expect(refusedField(intent({ fiatCurrencyAmount: "" }))).toBeUndefined();
    expect(refusedField(intent({ countryCode: "GB" }))).toBeUndefined();
    expect(refusedField(intent({ countryCode: "gb" }))).toBe("parameters.countryCode");
    expect(refusedField(intent({ countryCode: "US" }))).toBeUndefined(); // MoonPay: no subdivision rule
    expect(refusedField(intent({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_COINBASE", countryCode: "US" }))).toBe("parameters.countrySubdivisionCode");
    expect(refusedField(intent({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_COINBASE", countryCode: "US", countrySubdivisionCode: "ny" }))).toBe("parameters.countrySubdivisionCode");
    expect(refusedField(intent({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_COINBASE", countryCode: "US", countrySubdivisionCode: "NY" }))).toBeUndefined();
    expect(refusedField(intent({ urlForSignature: "https://buy.moonpay.com?apiKey=pk" }))).toBeUndefined();
    expect(refusedField(intent({ urlForSignature: "ftp://buy.moonpay.com" }))).toBe("parameters.urlForSignature");
    expect(refusedField(intent({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_COINBASE", urlForSignature: "https://pay.coinbase.com" }))).toBe("parameters.urlForSignature");
  });

  it("deliveries land on the network's chain (testnet in sandbox) for its native coin only", () => {
    expect(deliveryTarget("FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM", "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH", false)).toEqual({ caip2: "eip155:1" });
    expect(deliveryTarget("FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM", "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH", true)).toEqual({ caip2: "eip155:11155111" });
    expect(deliveryTarget("FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE", "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH", true)).toEqual({ caip2: "eip155:84532" });
    expect(deliveryTarget("FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA", "FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL", true)).toEqual({ caip2: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" });
    expect(deliveryTarget("FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA", "FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC", false)).toMatchObject({ skipped: expect.stringMatching(/no USDC/) });
    expect(deliveryTarget("FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN", "FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC", false)).toMatchObject({ skipped: expect.stringMatching(/no Bitcoin chain/) });
  });
});
