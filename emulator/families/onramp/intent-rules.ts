/**
 * The rules init_fiat_on_ramp applies to its intent before a checkout is opened (each
 * refusal is a 400 naming the field; nothing is written):
 *  - the coin must be sold on the network (BTC on Bitcoin; ETH on Ethereum and Base; SOL on
 *    Solana; USDC on Ethereum, Base and Solana);
 *  - walletAddress must be an address of the network (addresses.ts);
 *  - fiatCurrencyAmount, when preset, is a decimal greater than 20 (documented);
 *  - paymentMethod must be one the chosen provider takes (documented: "validated against the
 *    chosen provider");
 *  - countryCode is ISO 3166-1 alpha-2; for Coinbase, countrySubdivisionCode is required when
 *    countryCode is US (documented) and is an ISO 3166-2 subdivision code;
 *  - urlForSignature is a MoonPay widget URL (absolute http(s)); Coinbase has no URL signing.
 */
import { invalidArgument } from "../../core/errors.js";
import { InputError, quote } from "../../core/input-error.js";
import { checkDestinationAddress } from "./addresses.js";
import { parseFiatAmount } from "./amounts.js";
import { COINS, NETWORKS, PAYMENT_METHODS, PROVIDER_LABEL, shortName, type CryptoCurrency, type Network, type Provider } from "./catalog.js";
import { checkField } from "./field.js";

export type InitIntent = {
  onrampProvider: Provider;
  walletAddress: string;
  network: Network;
  cryptoCurrencyCode: CryptoCurrency;
  fiatCurrencyCode?: string | undefined;
  fiatCurrencyAmount?: string | undefined;
  paymentMethod?: string | undefined;
  countryCode?: string | undefined;
  countrySubdivisionCode?: string | undefined;
  sandboxMode?: boolean | undefined;
  urlForSignature?: string | undefined;
};

const given = (v: string | undefined): v is string => v !== undefined && v !== "";

export function checkInitIntent(p: InitIntent): void {
  const coin = COINS[p.cryptoCurrencyCode];
  const network = NETWORKS[p.network];
  if (!coin.networks.includes(p.network)) {
    throw invalidArgument(
      `cryptoCurrencyCode ${shortName(p.cryptoCurrencyCode)} is not sold on ${network.label} (it is on: ${coin.networks.map((n) => NETWORKS[n].label).join(", ")})`,
      "parameters.cryptoCurrencyCode",
    );
  }
  checkField("parameters.walletAddress", () => checkDestinationAddress(p.walletAddress, network));
  if (given(p.fiatCurrencyAmount)) checkField("parameters.fiatCurrencyAmount", () => parseFiatAmount(p.fiatCurrencyAmount!));
  if (given(p.paymentMethod) && !PAYMENT_METHODS[p.onrampProvider].includes(p.paymentMethod)) {
    throw invalidArgument(
      `paymentMethod ${shortName(p.paymentMethod)} is not offered by ${PROVIDER_LABEL[p.onrampProvider]} (it takes: ${PAYMENT_METHODS[p.onrampProvider].map(shortName).join(", ")})`,
      "parameters.paymentMethod",
    );
  }
  if (given(p.countryCode) && !/^[A-Z]{2}$/.test(p.countryCode)) throw invalidArgument(`countryCode must be an ISO 3166-1 two-letter country code such as US or GB, got ${quote(p.countryCode)}`, "parameters.countryCode");
  if (given(p.countrySubdivisionCode) && !/^[A-Z0-9]{1,3}$/.test(p.countrySubdivisionCode)) {
    throw invalidArgument(`countrySubdivisionCode must be an ISO 3166-2 subdivision code such as NY, got ${quote(p.countrySubdivisionCode)}`, "parameters.countrySubdivisionCode");
  }
  if (p.onrampProvider === "FIAT_ON_RAMP_PROVIDER_COINBASE" && p.countryCode === "US" && !given(p.countrySubdivisionCode)) {
    throw invalidArgument("countrySubdivisionCode is required when countryCode is US", "parameters.countrySubdivisionCode");
  }
  if (given(p.urlForSignature)) {
    if (p.onrampProvider !== "FIAT_ON_RAMP_PROVIDER_MOONPAY") throw invalidArgument("urlForSignature: URL signing is a MoonPay feature; Coinbase sessions have none", "parameters.urlForSignature");
    checkField("parameters.urlForSignature", () => {
      let u: URL;
      try {
        u = new URL(p.urlForSignature!);
      } catch {
        throw new InputError(`must be an absolute URL (the MoonPay widget URL to sign), got ${quote(p.urlForSignature)}`);
      }
      if (u.protocol !== "https:" && u.protocol !== "http:") throw new InputError(`must be an http(s) URL, got ${u.protocol}`);
    });
  }
}
