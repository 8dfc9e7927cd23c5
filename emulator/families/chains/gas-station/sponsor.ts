/**
 * The emulated gas station, the way the service runs it: a sponsored EVM send (or any send of
 * several calls) is a batch the user's account signs as EIP-712 `BatchExecution` and executes
 * through its EIP-7702 delegate (EmulatorGasDelegate.sol, beside this file). The
 * emulator's paymaster submits it and pays the gas (sponsored); unsponsored batches are sent
 * by the account itself. The first batch also carries the account's EIP-7702 authorization.
 *
 * Sponsorship is limited per organization (usage.ts).
 */
import type { Hex } from "viem";
import type { EvmChain } from "../evm-chain.js";
import { eip1559Fees, requireFunds } from "../evm-fees.js";
import { signEthereumTransaction, signRawPayload, type SigningKey } from "../../../signing/index.js";
import { EVM_PAYMASTER_ADDRESS, EVM_PAYMASTER_FLOAT, EVM_PAYMASTER_KEY, topUp } from "../sponsor-keys.js";
import { lazyModule } from "../../../core/lazy-module.js";

const viem = lazyModule<typeof import("viem")>("viem");
const delegate = () => import("./delegate.js");

/** Gas for an account's first delegation plus a batch whose estimate the chain cannot make before the delegation exists. */
const BATCH_BASE_GAS = 120_000n;
const PER_CALL_GAS = 60_000n;

export type BatchSendInput = {
  key: SigningKey;
  from: Hex;
  calls: { to: Hex; value: bigint; data: Hex }[];
  sponsor: boolean;
  gasStationNonce?: bigint;
  deadline?: bigint;
  nonce?: bigint;
  gasLimit?: bigint;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
  /** Gas each call may take, where no estimate can be made (an account's first batch): PER_CALL_GAS by default. */
  perCallGas?: bigint;
};

/** One paymaster transaction at a time per chain, so that concurrent sponsored sends never take the same nonce. */
const paymasterQueues = new WeakMap<EvmChain, Promise<unknown>>();
function serialized<T>(chain: EvmChain, fn: () => Promise<T>): Promise<T> {
  const prev = paymasterQueues.get(chain) ?? Promise.resolve();
  const next = prev.then(fn, fn);
  paymasterQueues.set(
    chain,
    next.catch(() => undefined),
  );
  return next;
}

function signature(sig: { r: string; s: string; v: string }): { r: Hex; s: Hex; yParity: number } {
  return { r: `0x${sig.r}`, s: `0x${sig.s}`, yParity: parseInt(sig.v, 16) };
}

/** Sends a batch through the account's delegate; returns the outer transaction's hash. */
export async function sendBatch(chain: EvmChain, input: BatchSendInput, chainRejection: (err: unknown) => never): Promise<string> {
  // The caller's fees are checked before anything reaches the chain; a sponsored batch pays the paymaster's (the chain's) fees at send time.
  const ownFees = input.sponsor ? undefined : eip1559Fees(await chain.getFeeData(), input);
  const d = await delegate();
  const delegated = (await d.delegationOf(chain, input.from, "pending")) === d.GAS_DELEGATE_ADDRESS;
  // Sponsored, the gas is the paymaster's; the values the calls move are still the account's own.
  const value = input.calls.reduce((n, c) => n + c.value, 0n);
  const perCallGas = input.perCallGas ?? PER_CALL_GAS;
  const firstBatchGas = BATCH_BASE_GAS + perCallGas * BigInt(input.calls.length) + 25_000n;
  // Before anything is written (the delegate's code) or signed: the account must hold the values, and,
  // unsponsored, the gas as far as it is known now: the caller's limit, the fixed one of a first
  // delegation, else (an estimate still to come) the 21,000 every transaction costs at least.
  // Sponsored, this is the whole check, made outside the paymaster's queue.
  // The gas of an unsponsored batch when it is known before the estimate (the caller's limit, or a first delegation's).
  const knownGas = input.gasLimit ?? (delegated ? undefined : firstBatchGas);
  await requireFunds(chain, input.from, { value, ...(ownFees ? { gas: { limit: knownGas ?? 21_000n, maxFeePerGas: ownFees.maxFee } } : {}) }, "the batch");
  await d.ensureDelegateInstalled(chain);
  const batchNonce = input.gasStationNonce ?? (await d.gasStationNonce(chain, input.from, delegated));
  const deadline = input.deadline ?? 0n;
  const typed = d.batchTypedData(chain.chainId, input.from, input.calls, batchNonce, deadline);
  const payload = JSON.stringify(typed, (_k, v: unknown) => (typeof v === "bigint" ? v.toString() : v));
  const batchSig = signRawPayload(input.key, payload, "PAYLOAD_ENCODING_EIP712", "HASH_FUNCTION_NO_OP");
  const data = d.executeCalldata(input.calls, batchNonce, deadline, `0x${batchSig.r}${batchSig.s}${(27 + parseInt(batchSig.v, 16)).toString(16)}`);

  const senderKey = input.sponsor ? EVM_PAYMASTER_KEY : input.key.privateKey;
  const sender = input.sponsor ? EVM_PAYMASTER_ADDRESS : input.from;
  const send = async (): Promise<string> => {
    const [senderNonce, { tip, maxFee }] = await Promise.all([input.sponsor ? chain.getNonce(sender) : (input.nonce ?? chain.getNonce(sender)), ownFees ?? chain.getFeeData().then((fees) => eip1559Fees(fees))]);
    const authorizationList = [];
    if (!delegated) {
      // The authorization's nonce is the account's nonce when it is applied: after the outer transaction's own when the account sends it.
      const accountNonce = input.sponsor ? await chain.getNonce(input.from) : senderNonce + 1n;
      const auth = signRawPayload(input.key, JSON.stringify({ address: d.GAS_DELEGATE_ADDRESS, chainId: chain.chainId, nonce: Number(accountNonce) }), "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION", "HASH_FUNCTION_NO_OP");
      authorizationList.push({ address: d.GAS_DELEGATE_ADDRESS, chainId: chain.chainId, nonce: Number(accountNonce), ...signature(auth) });
    }
    const gas =
      (input.sponsor ? undefined : input.gasLimit) ??
      (delegated
        ? await chain.estimateGas({ from: sender, to: input.from, data }).then(
            (g) => (g * 12n) / 10n,
            () => BATCH_BASE_GAS + perCallGas * BigInt(input.calls.length),
          )
        : firstBatchGas);
    // The full check once an estimated gas is known (the sponsored one, and one with the gas known up front, were made above).
    if (input.sponsor) await topUp(chain, EVM_PAYMASTER_ADDRESS, EVM_PAYMASTER_FLOAT);
    else if (knownGas === undefined) await requireFunds(chain, input.from, { value, gas: { limit: gas, maxFeePerGas: maxFee } }, "the batch");
    const unsigned = viem.serializeTransaction(
      authorizationList.length
        ? { type: "eip7702", chainId: chain.chainId, nonce: Number(senderNonce), to: input.from, data, gas, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, authorizationList }
        : { type: "eip1559", chainId: chain.chainId, nonce: Number(senderNonce), to: input.from, data, gas, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip },
    );
    const signed = signEthereumTransaction(senderKey, unsigned);
    return chain.sendRawTransaction(`0x${signed}`).catch(chainRejection);
  };
  return input.sponsor ? serialized(chain, send) : send();
}

/** The account's EIP-7702 undelegation: a transaction from the account to itself carrying an authorization to the zero address. */
export async function sendUndelegation(
  chain: EvmChain,
  input: { key: SigningKey; from: Hex; nonce?: bigint; gasLimit?: bigint; maxFeePerGas?: bigint; maxPriorityFeePerGas?: bigint },
  chainRejection: (err: unknown) => never,
): Promise<string> {
  const [nonce, fees] = await Promise.all([input.nonce ?? chain.getNonce(input.from), chain.getFeeData()]);
  const zero = "0x0000000000000000000000000000000000000000" as const;
  const auth = signRawPayload(input.key, JSON.stringify({ address: zero, chainId: chain.chainId, nonce: Number(nonce + 1n) }), "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION", "HASH_FUNCTION_NO_OP");
  const { tip, maxFee } = eip1559Fees(fees, input);
  const gas = input.gasLimit ?? UNDELEGATION_GAS;
  await requireFunds(chain, input.from, { value: 0n, gas: { limit: gas, maxFeePerGas: maxFee } }, "undelegating");
  const unsigned = viem.serializeTransaction({
    type: "eip7702",
    chainId: chain.chainId,
    nonce: Number(nonce),
    to: input.from,
    gas,
    maxFeePerGas: maxFee,
    maxPriorityFeePerGas: tip,
    authorizationList: [{ address: zero, chainId: chain.chainId, nonce: Number(nonce + 1n), ...signature(auth) }],
  });
  return chain.sendRawTransaction(`0x${signEthereumTransaction(input.key.privateKey, unsigned)}`).catch(chainRejection);
}

/** The fixed gas limit of an undelegation (21,000 + one authorization, with room). */
export const UNDELEGATION_GAS = 60_000n;

