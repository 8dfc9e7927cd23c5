/**
 * What the emulated on-ramp providers sell and where they deliver it: the published enums'
 * networks, coins and payment methods, which coin each network carries, which payment
 * method each provider takes (as @turnkey/sdk-types groups them), and the local chain
 * (caip2) a delivery lands on. Live purchases deliver on the main networks, sandbox ones on
 * the test networks, as the providers' sandboxes do.
 */

export type Provider = "FIAT_ON_RAMP_PROVIDER_COINBASE" | "FIAT_ON_RAMP_PROVIDER_MOONPAY";
export type Network = "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN" | "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM" | "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA" | "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE";
export type CryptoCurrency = "FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC" | "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH" | "FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL" | "FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC";

export type NetworkInfo = {
  label: string;
  /** Address family of the destination wallet. */
  addressKind: "evm" | "solana" | "bitcoin";
  /** The local chain a live / sandbox delivery lands on; null when the emulator runs no such chain. */
  caip2: { live: string | null; sandbox: string | null };
  /** The coin native to the network (credited as the chain's native balance). */
  nativeCoin: CryptoCurrency;
};

export const NETWORKS: Record<Network, NetworkInfo> = {
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN: { label: "Bitcoin", addressKind: "bitcoin", caip2: { live: null, sandbox: null }, nativeCoin: "FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC" },
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM: { label: "Ethereum", addressKind: "evm", caip2: { live: "eip155:1", sandbox: "eip155:11155111" }, nativeCoin: "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH" },
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE: { label: "Base", addressKind: "evm", caip2: { live: "eip155:8453", sandbox: "eip155:84532" }, nativeCoin: "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH" },
  FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA: {
    label: "Solana",
    addressKind: "solana",
    caip2: { live: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", sandbox: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" },
    nativeCoin: "FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL",
  },
};

export type CoinInfo = { symbol: string; decimals: number; networks: readonly Network[] };

export const COINS: Record<CryptoCurrency, CoinInfo> = {
  FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC: { symbol: "BTC", decimals: 8, networks: ["FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN"] },
  FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH: { symbol: "ETH", decimals: 18, networks: ["FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM", "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE"] },
  FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL: { symbol: "SOL", decimals: 9, networks: ["FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA"] },
  FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC: {
    symbol: "USDC",
    decimals: 6,
    networks: ["FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM", "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE", "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA"],
  },
};

const SHARED_METHODS = ["FIAT_ON_RAMP_PAYMENT_METHOD_CREDIT_DEBIT_CARD", "FIAT_ON_RAMP_PAYMENT_METHOD_APPLE_PAY"];

/** Payment methods each provider takes (shared ones first), per @turnkey/sdk-types' grouping. */
export const PAYMENT_METHODS: Record<Provider, readonly string[]> = {
  FIAT_ON_RAMP_PROVIDER_MOONPAY: [
    ...SHARED_METHODS,
    "FIAT_ON_RAMP_PAYMENT_METHOD_GBP_BANK_TRANSFER",
    "FIAT_ON_RAMP_PAYMENT_METHOD_GBP_OPEN_BANKING_PAYMENT",
    "FIAT_ON_RAMP_PAYMENT_METHOD_GOOGLE_PAY",
    "FIAT_ON_RAMP_PAYMENT_METHOD_SEPA_BANK_TRANSFER",
    "FIAT_ON_RAMP_PAYMENT_METHOD_PIX_INSTANT_PAYMENT",
    "FIAT_ON_RAMP_PAYMENT_METHOD_PAYPAL",
    "FIAT_ON_RAMP_PAYMENT_METHOD_VENMO",
    "FIAT_ON_RAMP_PAYMENT_METHOD_MOONPAY_BALANCE",
  ],
  FIAT_ON_RAMP_PROVIDER_COINBASE: [...SHARED_METHODS, "FIAT_ON_RAMP_PAYMENT_METHOD_CRYPTO_ACCOUNT", "FIAT_ON_RAMP_PAYMENT_METHOD_FIAT_WALLET", "FIAT_ON_RAMP_PAYMENT_METHOD_ACH_BANK_ACCOUNT"],
};

export const PROVIDER_LABEL: Record<Provider, string> = { FIAT_ON_RAMP_PROVIDER_COINBASE: "Coinbase", FIAT_ON_RAMP_PROVIDER_MOONPAY: "MoonPay" };

/** The enum value without its prefix, for display: FIAT_ON_RAMP_CURRENCY_USD -> USD. */
export const shortName = (value: string): string => value.replace(/^FIAT_ON_RAMP_(PROVIDER|BLOCKCHAIN_NETWORK|CRYPTO_CURRENCY|CURRENCY|PAYMENT_METHOD)_/, "");

/**
 * Where a delivery of `coin` on `network` is credited in this emulator: the local chain and
 * the native asset, or the reason nothing is (no local chain for the network, or a token
 * that no local chain carries: the local chains have no USDC contract or mint).
 */
export function deliveryTarget(network: Network, coin: CryptoCurrency, sandbox: boolean): { caip2: string } | { skipped: string } {
  const n = NETWORKS[network];
  const caip2 = sandbox ? n.caip2.sandbox : n.caip2.live;
  if (!caip2) return { skipped: `the emulator runs no ${n.label} chain: nothing was credited` };
  if (coin !== n.nativeCoin) return { skipped: `${COINS[coin].symbol} is a token and the local ${caip2} chain has no ${COINS[coin].symbol} contract: nothing was credited` };
  return { caip2 };
}
