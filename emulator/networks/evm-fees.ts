/** EIP-1559 fee defaults shared by every transaction the emulator builds (kept free of viem so handlers load it cheaply). */
import type { EvmFeeData } from "./evm-chain.js";

/** The caller's fees, else the chain's tip (1 gwei when it suggests none) and twice the base fee plus the tip. */
export function eip1559Fees(fees: EvmFeeData, given: { maxPriorityFeePerGas?: bigint | undefined; maxFeePerGas?: bigint | undefined } = {}): { tip: bigint; maxFee: bigint } {
  const tip = given.maxPriorityFeePerGas ?? (fees.maxPriorityFeePerGas > 0n ? fees.maxPriorityFeePerGas : 1_000_000_000n);
  return { tip, maxFee: given.maxFeePerGas ?? fees.baseFeePerGas * 2n + tip };
}
