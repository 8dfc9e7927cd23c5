/**
 * eth_send_transaction: builds an EIP-1559 transaction from the intent, fills nonce, gas and
 * fees from the chain of its caip2, signs it with the organization's key named by `from`,
 * broadcasts it to the emulator's chain and records a send-transaction status whose fate
 * get_send_transaction_status reads back from the chain. Sponsored sends and batches of
 * several calls go through the emulated gas station (gas-station/sponsor.ts). Also here:
 * sol_send_transaction (sol-send-transaction.ts), eth_undelegate_7702 and the retired
 * eth_send_raw_transaction, which broadcasts a transaction signed elsewhere.
 */
import type { Hex } from "viem";
import { invalidArgument } from "../../core/errors.js";
import { signEthereumTransaction } from "../../signing/index.js";
import { chainEffect, defineActivity, type ChainEffect } from "../../core/vocabulary/define.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import type { Wire } from "../../../contracts/wire.js";
import type { EvmChain } from "./evm-chain.js";
import { eip1559Fees, requireFunds } from "./evm-fees.js";
import { RpcError } from "./rpc.js";
import { lazyModule } from "../../core/lazy-module.js";
import { sendBatch, sendUndelegation } from "./gas-station/sponsor.js";
import { checkSponsorshipAllowed } from "./gas-station/usage.js";
import { checkEvmAddress } from "./chain-address.js";
import { solSend, solSubjects, type SolSendParams } from "./sol-send-transaction.js";
import { chainRejection, ethSigner, evmSent, recordSend, sendEffect, type SentTransaction } from "./sending.js";
import { quote } from "../../core/input-error.js";
import { requireNetworks } from "./networks.js";

const viem = lazyModule<typeof import("viem")>("viem");

/** Either published intent (V2 `calls`, or the original top-level `to`/`value`/`data`), read field by field. */
type EthSendParams = Partial<Wire["v1EthSendTransactionIntent"]> & Partial<Wire["v1EthSendTransactionIntentV2"]> & Pick<Wire["v1EthSendTransactionIntentV2"], "from" | "caip2">;

/** Gas for a call whose estimate reverts: it is still sent, so the chain records the revert. */
const REVERTING_CALL_GAS = 1_000_000n;
const MAX_CALLS = 50;

function uint(value: string | undefined, field: string): bigint | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) throw invalidArgument(`${field} must be a non-negative integer (decimal or 0x-hex), got ${quote(value)}`, field);
  return BigInt(value);
}

type Call = { to: Hex; value: bigint; data: Hex };

/** The calls of the intent: V2 `calls` (1 to 50) or the original top-level fields. */
function theCalls(p: EthSendParams): Call[] {
  const calls = p.calls ?? [{ to: p.to ?? "", ...(p.value !== undefined ? { value: p.value } : {}), ...(p.data !== undefined ? { data: p.data } : {}) }];
  if (calls.length < 1 || calls.length > MAX_CALLS) throw invalidArgument(`calls must hold 1 to ${MAX_CALLS} calls, got ${calls.length}`, "parameters.calls");
  return calls.map((c, i) => {
    const base = p.calls ? `parameters.calls[${i}]` : "parameters";
    const to = checkEvmAddress(c.to, `${base}.to`);
    const data = c.data ?? "0x";
    if (!viem.isHex(data) || data.length % 2 !== 0) throw invalidArgument(`data must be 0x-prefixed hex bytes`, `${base}.data`);
    return { to, value: uint(c.value, `${base}.value`) ?? 0n, data: data as Hex };
  });
}

const networksOf = (ctx: ActivityContext) => requireNetworks(ctx.rt, "parameters.caip2");

/** Prepares an EVM send (the signer, the calls, the numbers the intent gives); its effect builds, signs and broadcasts it. */
function ethSend(ctx: ActivityContext, p: EthSendParams): ChainEffect<SentTransaction> {
  const networks = networksOf(ctx);
  const { key, address: from } = ethSigner(ctx, p.from);
  const calls = theCalls(p);
  const nonceIn = uint(p.nonce, "parameters.nonce");
  const gasIn = uint(p.gasLimit, "parameters.gasLimit");
  const maxFeeIn = uint(p.maxFeePerGas, "parameters.maxFeePerGas");
  const tipIn = uint(p.maxPriorityFeePerGas, "parameters.maxPriorityFeePerGas");
  const deadline = uint(p.deadline, "parameters.deadline");
  const gasStationNonce = uint(p.gasStationNonce, "parameters.gasStationNonce");
  return sendEffect(ctx, async () => {
    if (p.sponsor) await checkSponsorshipAllowed(ctx);
    const chain = (await networks.evm(p.caip2, "parameters.caip2")) as EvmChain;

    if (p.sponsor || calls.length > 1) {
      // The gas station: a batch signed by the account, executed through its EIP-7702 delegate.
      const txHash = await sendBatch(
        chain,
        {
          key,
          from,
          calls,
          sponsor: !!p.sponsor,
          ...(gasStationNonce !== undefined ? { gasStationNonce } : {}),
          ...(deadline !== undefined ? { deadline } : {}),
          ...(nonceIn !== undefined ? { nonce: nonceIn } : {}),
          ...(gasIn !== undefined ? { gasLimit: gasIn } : {}),
          ...(maxFeeIn !== undefined ? { maxFeePerGas: maxFeeIn } : {}),
          ...(tipIn !== undefined ? { maxPriorityFeePerGas: tipIn } : {}),
        },
        chainRejection,
      );
      return evmSent(chain, txHash, from, { sponsored: !!p.sponsor });
    }

    const call = calls[0]!;
    const [nonce, fees] = await Promise.all([nonceIn ?? chain.getNonce(from), chain.getFeeData()]);
    const { tip, maxFee } = eip1559Fees(fees, { maxPriorityFeePerGas: tipIn, maxFeePerGas: maxFeeIn });
    const gas =
      gasIn ??
      (await chain.estimateGas({ from, to: call.to, data: call.data, value: call.value }).catch((err: unknown) => {
        if (!(err instanceof RpcError)) throw err;
        if (err.message.toLowerCase().includes("insufficient funds")) chainRejection(err);
        return REVERTING_CALL_GAS;
      }));
    await requireFunds(chain, from, { value: call.value, gas: { limit: gas, maxFeePerGas: maxFee } }, "the transaction");
    const unsigned = viem.serializeTransaction({ type: "eip1559", chainId: chain.chainId, nonce: Number(nonce), to: call.to, value: call.value, data: call.data, gas, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip });
    const signed = signEthereumTransaction(key.privateKey, unsigned);
    const txHash = await chain.sendRawTransaction(`0x${signed}`).catch(chainRejection);
    return evmSent(chain, txHash, from);
  });
}

type UndelegateParams = { from: string; caip2: string; nonce?: string; gasLimit?: string; maxFeePerGas?: string; maxPriorityFeePerGas?: string };

function ethUndelegate(ctx: ActivityContext, p: UndelegateParams): ChainEffect<SentTransaction> {
  const networks = networksOf(ctx);
  const { key, address: from } = ethSigner(ctx, p.from);
  const nonce = uint(p.nonce, "parameters.nonce");
  const gasLimit = uint(p.gasLimit, "parameters.gasLimit");
  const maxFeePerGas = uint(p.maxFeePerGas, "parameters.maxFeePerGas");
  const maxPriorityFeePerGas = uint(p.maxPriorityFeePerGas, "parameters.maxPriorityFeePerGas");
  return sendEffect(ctx, async () => {
    const chain = (await networks.evm(p.caip2, "parameters.caip2")) as EvmChain;
    const { delegationOf } = await import("./gas-station/delegate.js");
    if (!(await delegationOf(chain, from, "pending"))) throw invalidArgument(`${from} has no EIP-7702 delegation on ${chain.caip2}: nothing to undelegate`, "parameters.from");
    const txHash = await sendUndelegation(
      chain,
      { key, from, ...(nonce !== undefined ? { nonce } : {}), ...(gasLimit !== undefined ? { gasLimit } : {}), ...(maxFeePerGas !== undefined ? { maxFeePerGas } : {}), ...(maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas } : {}) },
      chainRejection,
    );
    return evmSent(chain, txHash, from, { kind: "undelegate" });
  });
}

/** The retired eth_send_raw_transaction: broadcasts a transaction signed elsewhere; answers its hash. */
function ethSendRaw(ctx: ActivityContext, p: { signedTransaction: string; caip2: string }): ChainEffect<SentTransaction> {
  const networks = networksOf(ctx);
  const raw = p.signedTransaction.startsWith("0x") ? p.signedTransaction : `0x${p.signedTransaction}`;
  if (!viem.isHex(raw) || raw.length < 4 || raw.length % 2 !== 0) throw invalidArgument("signedTransaction must be the hex of a signed Ethereum transaction", "parameters.signedTransaction");
  const broadcast = async (): Promise<SentTransaction> => {
    let from: Hex;
    let chainIdOfTx: number | undefined;
    try {
      const tx = viem.parseTransaction(raw as Hex);
      if (tx.r === undefined || tx.s === undefined) throw new Error("it carries no signature");
      chainIdOfTx = tx.chainId;
      from = await viem.recoverTransactionAddress({ serializedTransaction: raw as never });
    } catch (err) {
      throw invalidArgument(`signedTransaction is not a signed Ethereum transaction: ${(err as Error).message.split("\n")[0]}`, "parameters.signedTransaction");
    }
    const chain = (await networks.evm(p.caip2, "parameters.caip2")) as EvmChain;
    if (chainIdOfTx !== undefined && chainIdOfTx !== chain.chainId) throw invalidArgument(`signedTransaction is for chain id ${chainIdOfTx}, not ${chain.caip2}`, "parameters.signedTransaction");
    const transactionHash = await chain.sendRawTransaction(raw).catch((err: unknown) => {
      if (!(err instanceof RpcError)) throw err;
      throw invalidArgument(`the chain rejected the transaction: ${err.message}`, "parameters.signedTransaction");
    });
    return evmSent(chain, transactionHash, from, { kind: "raw" });
  };
  return chainEffect(broadcast, (sent) => {
    recordSend(ctx, sent);
    return { transactionHash: sent.txHash };
  });
}

/** What the policy engine sees: the signer and the transaction as an unsigned EIP-1559 payload. */
function ethSubjects(p: EthSendParams) {
  try {
    const calls = theCalls(p);
    if (calls.length !== 1) return { signWith: p.from, address: p.from };
    const call = calls[0]!;
    const chainId = Number(p.caip2.split(":")[1]);
    const unsigned = viem.serializeTransaction({ type: "eip1559", chainId, to: call.to, value: call.value, data: call.data, ...(p.nonce && /^[0-9]+$/.test(p.nonce) ? { nonce: Number(p.nonce) } : {}) });
    return { signWith: p.from, address: p.from, transaction: { type: "TRANSACTION_TYPE_ETHEREUM", unsigned } };
  } catch {
    return { signWith: p.from, address: p.from };
  }
}

export const sendTransactionOperations = [
  defineActivity("eth_send_transaction", {
    // The table names ETH_SEND_TRANSACTION; its _V2 is read the same (UNCONFIRMED).
    policy: { resource: "PRIVATE_KEY", action: "SIGN", source: "documented" },
    legacy: ["ACTIVITY_TYPE_ETH_SEND_TRANSACTION"],
    separateRateLimit: true, // a broadcast endpoint: reference/faq.mdx's separate 10 RPS
    subjects: (p) => ethSubjects(p as EthSendParams),
    // A chain effect: prepared here, broadcast outside the transaction, its status row recorded with the activity.
    run: (ctx, p) => ethSend(ctx, p as EthSendParams),
  }),
  defineActivity("sol_send_transaction", {
    // The table names SOL_SEND_TRANSACTION; its _V2 is read the same (UNCONFIRMED).
    policy: { resource: "PRIVATE_KEY", action: "SIGN", source: "documented" },
    legacy: ["ACTIVITY_TYPE_SOL_SEND_TRANSACTION"],
    separateRateLimit: true, // a broadcast endpoint: reference/faq.mdx's separate 10 RPS
    subjects: (p) => solSubjects(p as SolSendParams),
    run: (ctx, p) => sendEffect(ctx, () => solSend(ctx, p as SolSendParams)),
  }),
  defineActivity("eth_undelegate_7702", {
    policy: { resource: "PRIVATE_KEY", action: "SIGN", source: "inferred" },
    // @turnkey/sdk-server and sdk-browser 8.2 send this spelling, which no document has (contracts/legacy.ts).
    legacy: ["ACTIVITY_TYPE_ETH_UNDELEGATE7702"],
    subjects: (p) => ({ signWith: p.from, address: p.from }),
    run: (ctx, p) => ethUndelegate(ctx, p),
  }),
  defineActivity("eth_send_raw_transaction", {
    policy: { resource: "PRIVATE_KEY", action: "SIGN", source: "inferred" },
    run: (ctx, p) => ethSendRaw(ctx, p),
  }),
];
