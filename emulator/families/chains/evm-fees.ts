/**
 * What an EVM transaction the emulator builds may cost, and whether its sender can pay: the
 * EIP-1559 fee defaults and the two refusals every send shares (a fee cap below the tip, a
 * sender short of funds). Kept free of viem so handlers load it cheaply.
 */
import { invalidArgument } from "../../core/errors.js";
import type { EvmChain, EvmFeeData } from "./evm-chain.js";

/**
 * The caller's fees, else the chain's tip (1 gwei when it suggests none) and twice the base fee
 * plus the tip. A maxFeePerGas below the tip it would pay is refused, naming parameters.maxFeePerGas.
 */
export function eip1559Fees(fees: EvmFeeData, given: { maxPriorityFeePerGas?: bigint | undefined; maxFeePerGas?: bigint | undefined } = {}): { tip: bigint; maxFee: bigint } {
  const tip = given.maxPriorityFeePerGas ?? (fees.maxPriorityFeePerGas > 0n ? fees.maxPriorityFeePerGas : 1_000_000_000n);
  const maxFee = given.maxFeePerGas ?? fees.baseFeePerGas * 2n + tip;
  if (maxFee < tip) throw invalidArgument(`maxFeePerGas must be at least maxPriorityFeePerGas (${maxFee} < ${tip})`, "parameters.maxFeePerGas");
  return { tip, maxFee };
}

/**
 * Refuses, naming parameters.from, a transaction `payer` cannot pay for: the value it moves plus,
 * when it pays its own gas, gasLimit * maxFeePerGas (the most the gas can cost).
 */
export async function requireFunds(chain: EvmChain, payer: string, cost: { value: bigint; gas?: { limit: bigint; maxFeePerGas: bigint } }, what: string): Promise<void> {
  const need = cost.value + (cost.gas ? cost.gas.limit * cost.gas.maxFeePerGas : 0n);
  const balance = await chain.getBalance(payer);
  if (balance >= need) return;
  const parts = cost.gas ? `value ${cost.value} + gasLimit ${cost.gas.limit} * maxFeePerGas ${cost.gas.maxFeePerGas}` : `value ${cost.value}; the gas is sponsored`;
  throw invalidArgument(`insufficient funds: ${payer} holds ${balance} wei on ${chain.caip2}, ${what} needs up to ${need} (${parts})`, "parameters.from");
}
