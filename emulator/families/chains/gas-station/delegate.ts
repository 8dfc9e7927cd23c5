/**
 * The gas station on an EVM chain: the delegate code (EmulatorGasDelegate.sol, compiled into
 * artifact.ts) installed at a fixed address, how to tell whether an account delegates to it
 * (EIP-7702 designator `0xef0100 ‖ address` as the account's code), its per-account nonce, the
 * EIP-712 `BatchExecution` a user signs, and the calldata the paymaster submits.
 */
import { encodeFunctionData, decodeFunctionResult, getAddress, keccak256, toBytes, type Hex } from "viem";
import type { EvmChain } from "../evm-chain.js";
import { GAS_DELEGATE_ABI, GAS_DELEGATE_RUNTIME } from "./artifact.js";

/** Where the delegate code lives on every chain (our own fixed address; the code is installed on first use). */
export const GAS_DELEGATE_ADDRESS = getAddress(`0x${keccak256(toBytes("turnkey-emulator gas delegate v1")).slice(-40)}`);

export type BatchCall = { to: Hex; value: bigint; data: Hex };

/** Puts the delegate code at its address if the chain does not have it yet (EDR and Anvil answer hardhat_setCode). */
export async function ensureDelegateInstalled(chain: EvmChain): Promise<void> {
  const code = await chain.rpc<Hex>("eth_getCode", [GAS_DELEGATE_ADDRESS, "latest"]);
  if (code.toLowerCase() === GAS_DELEGATE_RUNTIME.toLowerCase()) return;
  await chain.rpc("hardhat_setCode", [GAS_DELEGATE_ADDRESS, GAS_DELEGATE_RUNTIME]);
}

/** The address an account delegates to with EIP-7702, or undefined for a plain account. */
export async function delegationOf(chain: EvmChain, account: string, blockTag = "latest"): Promise<Hex | undefined> {
  const code = await chain.rpc<Hex>("eth_getCode", [account, blockTag]);
  if (code.length === 48 && code.toLowerCase().startsWith("0xef0100")) return getAddress(`0x${code.slice(8)}`);
  return undefined;
}

/**
 * The gas-station nonce of an account: what its next signed batch must carry (0 before it
 * delegates to us). A caller that already read the delegation passes it as `delegated`.
 */
export async function gasStationNonce(chain: EvmChain, account: string, delegated?: boolean): Promise<bigint> {
  if (!(delegated ?? ((await delegationOf(chain, account, "pending")) === GAS_DELEGATE_ADDRESS))) return 0n;
  const out = await chain.call({ to: account, data: encodeFunctionData({ abi: GAS_DELEGATE_ABI, functionName: "nonce" }) }, "pending");
  return decodeFunctionResult({ abi: GAS_DELEGATE_ABI, functionName: "nonce", data: out });
}

/** The EIP-712 typed data the account signs for a batch (domain bound to the account itself, as the delegate runs there). */
export function batchTypedData(chainId: number, account: string, calls: BatchCall[], nonce: bigint, deadline: bigint) {
  return {
    domain: { name: "EmulatorGasDelegate", version: "1", chainId, verifyingContract: getAddress(account) },
    types: {
      BatchExecution: [
        { name: "nonce", type: "uint256" },
        { name: "deadline", type: "uint256" },
        { name: "calls", type: "Call[]" },
      ],
      Call: [
        { name: "to", type: "address" },
        { name: "value", type: "uint256" },
        { name: "data", type: "bytes" },
      ],
    },
    primaryType: "BatchExecution" as const,
    message: { nonce, deadline, calls },
  };
}

/** Calldata of `execute(calls, nonce, deadline, signature)` on the delegated account. */
export function executeCalldata(calls: BatchCall[], nonce: bigint, deadline: bigint, signature: Hex): Hex {
  return encodeFunctionData({ abi: GAS_DELEGATE_ABI, functionName: "execute", args: [calls, nonce, deadline, signature] });
}
