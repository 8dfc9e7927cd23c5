/**
 * The emulator's DeFi operator: the well-known development key (derived from a fixed label, like
 * the gas-station keys) that deploys the local tokens, vaults, pools and Earn wrappers and sends
 * the transactions the service itself would send (deposits switch, fee claims). It is funded by
 * the dev controls on first use; local chains only.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import type { Hex } from "viem";
import type { EvmChain } from "../evm-chain.js";
import { eip1559Fees } from "../evm-fees.js";
import { topUp } from "../sponsor-keys.js";
import { signEthereumTransaction } from "../../../signing/index.js";
import { lazyModule } from "../../../core/lazy-module.js";

const viem = lazyModule<typeof import("viem")>("viem");

/** secp256k1 private key of the operator. */
export const DEFI_OPERATOR_KEY: Uint8Array = sha256(new TextEncoder().encode("turnkey-emulator defi: operator"));
/** Its address, written out (operator.test.ts derives it again). */
export const DEFI_OPERATOR_ADDRESS: Hex = "0x060B30AbaB503D440acf29086a97289be889901f";
/** What the operator holds at least (local ether: the seeding wraps some of it). */
export const DEFI_OPERATOR_FLOAT = 1_000_000n * 10n ** 18n;

/** Gas for any operator transaction (a wrapper's deployment is the largest, about 1.5M). */
const OPERATOR_GAS = 5_000_000n;

export type OperatorTx = { to?: Hex; data: Hex; value?: bigint };

/** One operator transaction at a time per chain, so that concurrent sends never take the same nonce. */
const queues = new WeakMap<EvmChain, Promise<unknown>>();
export function serializedForOperator<T>(chain: EvmChain, fn: () => Promise<T>): Promise<T> {
  const next = (queues.get(chain) ?? Promise.resolve()).then(fn, fn);
  queues.set(
    chain,
    next.catch(() => undefined),
  );
  return next;
}

/**
 * Signs and sends `tx` from the operator at `nonce` (its next one when absent); returns the hash.
 * The caller serializes (serializedForOperator) when the nonce matters.
 */
export function sendAsOperator(chain: EvmChain, tx: OperatorTx, nonce?: bigint): Promise<Hex> {
  return sendAsServiceKey(chain, { key: DEFI_OPERATOR_KEY, address: DEFI_OPERATOR_ADDRESS, float: DEFI_OPERATOR_FLOAT }, tx, nonce);
}

/** A key of the service on the local chains (the operator, a swap fee vault) and the ether it keeps for gas. */
export type ServiceKey = { key: Uint8Array; address: Hex; float: bigint };

/** Signs and sends `tx` from a service key, topped up to its float first, at `nonce` (its next one when absent). */
export async function sendAsServiceKey(chain: EvmChain, from: ServiceKey, tx: OperatorTx, nonce?: bigint): Promise<Hex> {
  await topUp(chain, from.address, from.float);
  const [n, fees] = await Promise.all([nonce ?? chain.getNonce(from.address), chain.getFeeData()]);
  const { tip, maxFee } = eip1559Fees(fees);
  const unsigned = viem.serializeTransaction({
    type: "eip1559",
    chainId: chain.chainId,
    nonce: Number(n),
    ...(tx.to ? { to: tx.to } : {}),
    data: tx.data,
    value: tx.value ?? 0n,
    gas: OPERATOR_GAS,
    maxFeePerGas: maxFee,
    maxPriorityFeePerGas: tip,
  });
  return (await chain.sendRawTransaction(`0x${signEthereumTransaction(from.key, unsigned)}`)) as Hex;
}
