/**
 * The USD reference prices the emulator uses to value gas (get_gas_usage and the gas
 * station's limits). Local chains have no market, so these are fixed, round numbers: change
 * them here. Micro-dollars per whole coin.
 */
export const USD_MICROS_PER_COIN: Record<string, bigint> = {
  ETH: 3_000_000_000n,
  POL: 250_000n,
  BNB: 600_000_000n,
  MON: 1_000_000n,
  SOL: 150_000_000n,
  // The local DeFi tokens (defi/): the test dollar at par, wrapped ether at ether's price.
  TUSD: 1_000_000n,
  WETH: 3_000_000_000n,
};

/** USD micro-dollars for `amount` base units of a coin with `decimals`. */
export function usdMicros(symbol: string, amount: bigint, decimals: number): bigint {
  return (amount * (USD_MICROS_PER_COIN[symbol] ?? 0n)) / 10n ** BigInt(decimals);
}

/** "12.345678" from micro-dollars (trailing zeros dropped). */
export function formatUsd(micros: bigint): string {
  const whole = micros / 1_000_000n;
  const frac = (micros % 1_000_000n).toString().padStart(6, "0").replace(/0+$/, "");
  return frac ? `${whole}.${frac}` : `${whole}`;
}

/** Micro-dollars from a decimal USD string ("25", "0.5"); undefined when it is not one. */
export function parseUsd(value: string): bigint | undefined {
  const m = /^([0-9]{1,15})(?:\.([0-9]{1,6}))?$/.exec(value.trim());
  if (!m) return undefined;
  return BigInt(m[1]!) * 1_000_000n + BigInt((m[2] ?? "").padEnd(6, "0"));
}
