/**
 * Amounts on the emulated checkout. Fiat amounts are decimal strings with at most three
 * decimals (the most any ISO 4217 currency has: KWD, JOD, OMR); crypto amounts are decimal strings of whole coins (at most the coin's decimals)
 * turned into the smallest unit (wei, lamports, satoshis) as bigints, never floats.
 *
 * The emulated providers quote at fixed prices, the same number of units of any fiat
 * currency per coin (no exchange rates offline): ETH and SOL at the emulator's USD reference
 * prices (families/chains/prices.ts, which also value gas), BTC and USDC at their own below. A buyer
 * who wants another amount types it on the checkout page or posts `cryptoAmount`.
 */
import { InputError, quote as quoted } from "../../core/input-error.js";
import { USD_MICROS_PER_COIN } from "../chains/index.js";
import { COINS, type CryptoCurrency } from "./catalog.js";

/** Millionths of a fiat unit (of whatever currency) per whole coin. */
export const EMULATED_PRICE_MICROS: Record<CryptoCurrency, bigint> = {
  FIAT_ON_RAMP_CRYPTO_CURRENCY_BTC: 50_000_000_000n,
  FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH: USD_MICROS_PER_COIN.ETH!,
  FIAT_ON_RAMP_CRYPTO_CURRENCY_SOL: USD_MICROS_PER_COIN.SOL!,
  FIAT_ON_RAMP_CRYPTO_CURRENCY_USDC: 1_000_000n,
};

/** Fiat amounts are counted in thousandths of the currency unit. */
export const FIAT_DECIMALS = 3;
/** The intent's preset fiat amount must be greater than this (documented: "must be greater than '20'"), in thousandths. */
export const MIN_FIAT_AMOUNT = 20_000n;

const DECIMAL = /^(0|[1-9][0-9]*)(?:\.([0-9]+))?$/;

/** A non-negative decimal string as an integer count of 10^-decimals units. */
export function parseUnits(value: string, decimals: number): bigint {
  const m = DECIMAL.exec(value);
  if (!m) throw new InputError(`must be a decimal number such as "100" or "25.50", got ${quoted(value)}`);
  const frac = m[2] ?? "";
  if (frac.length > decimals) throw new InputError(`has more than ${decimals} decimal places: ${quoted(value)}`);
  return BigInt(m[1]!) * 10n ** BigInt(decimals) + BigInt(frac.padEnd(decimals, "0") || "0");
}

/** The inverse of parseUnits, without trailing zeros: (1500000000000000000n, 18) -> "1.5". */
export function formatUnits(units: bigint, decimals: number): string {
  const base = 10n ** BigInt(decimals);
  const frac = (units % base).toString().padStart(decimals, "0").replace(/0+$/, "");
  return frac ? `${units / base}.${frac}` : `${units / base}`;
}

/** Fiat amount (decimal string) in thousandths; refuses what is not over the documented minimum of 20. */
export function parseFiatAmount(value: string): bigint {
  const units = parseUnits(value, FIAT_DECIMALS);
  if (units <= MIN_FIAT_AMOUNT) throw new InputError(`must be greater than 20, got ${quoted(value)}`);
  return units;
}

/** What `fiat` (thousandths, as parseFiatAmount gives) buys of `coin` at the emulated price, in the coin's smallest unit (rounded down). */
export function quote(fiat: bigint, coin: CryptoCurrency): bigint {
  const { decimals } = COINS[coin];
  return (fiat * 10n ** BigInt(decimals + 6 - FIAT_DECIMALS)) / EMULATED_PRICE_MICROS[coin];
}

/** A buyer-typed crypto amount (whole coins, decimal string) in the smallest unit; must be positive. */
export function parseCryptoAmount(value: string, coin: CryptoCurrency): bigint {
  const units = parseUnits(value, COINS[coin].decimals);
  if (units <= 0n) throw new InputError(`must be greater than 0, got ${quoted(value)}`);
  return units;
}
