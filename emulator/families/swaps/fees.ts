/**
 * Where the fees of a swap go. Both come out of the swap's output, in the output token (out of
 * ether, the client fee is wrapped into WETH on its way to the fee vault: swapCalls in swap.ts):
 * - Turnkey's fee (TURNKEY_SWAP_FEE_BPS, the documented default) to the service's own account,
 *   the DeFi operator;
 * - the client fee (upsert_swap_config's rate) to the fee vault of the organization's fee
 *   receiver, where it accrues, the way a provider holds an integrator's fees, until
 *   claim_swap_fees pays it out to the receiver (payOutFees).
 * A fee vault is a service key derived from a fixed label and the receiver's address (like the
 * operator's and the gas station's keys): the same in every instance, local chains only.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { encodeFunctionData, type Hex } from "viem";
import { privateKeyToAddress } from "viem/accounts";
import type { EvmChain } from "../chains/index.js";
import { holdings } from "../chains/index.js";
import { LOCAL_TOKEN_ABI, DEFI_OPERATOR_ADDRESS, sendAsServiceKey, serializedForOperator, type ServiceKey } from "../chains/defi/index.js";

/** Turnkey's own fee on a swap, in basis points of the output (the documented default of every plan for a standard pair). */
export const TURNKEY_SWAP_FEE_BPS = 20n;
/** Where Turnkey's fee goes: the service's account on the local chains. */
export const TURNKEY_FEE_ACCOUNT: Hex = DEFI_OPERATOR_ADDRESS;

/** Ether a fee vault keeps for the gas of its payouts (the dev controls fund it). */
const VAULT_FLOAT = 10n ** 18n;

/** The fee vault of a fee receiver (an EVM address, any case). */
export function feeVault(receiver: string): ServiceKey {
  const key = sha256(new TextEncoder().encode(`turnkey-emulator swap fees: ${receiver.toLowerCase()}`));
  return { key, address: privateKeyToAddress(`0x${Buffer.from(key).toString("hex")}`), float: VAULT_FLOAT };
}

export type FeePayout = { token: string; amount: bigint; txHash: Hex };

/** Sends everything the receiver's fee vault holds on `chain`, token by token, to the receiver. */
export function payOutFees(chain: EvmChain, receiver: Hex): Promise<FeePayout[]> {
  const vault = feeVault(receiver);
  return serializedForOperator(chain, async () => {
    const out: FeePayout[] = [];
    for (const h of await holdings(chain, vault.address)) {
      if (!h.address || h.balance === 0n) continue; // the native coin is the vault's gas, not fees
      const data = encodeFunctionData({ abi: LOCAL_TOKEN_ABI, functionName: "transfer", args: [receiver, h.balance] });
      out.push({ token: h.address, amount: h.balance, txHash: await sendAsServiceKey(chain, vault, { to: h.address as Hex, data }) });
    }
    return out;
  });
}
