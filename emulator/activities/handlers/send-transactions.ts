/**
 * eth_send_transaction: builds an EIP-1559 transaction from the intent, fills nonce, gas and
 * fees from the chain of its caip2, signs it with the organization's key named by `from`,
 * broadcasts it to the emulator's chain and records a send-transaction status whose fate
 * get_send_transaction_status reads back from the chain.
 */
import type { Hex } from "viem";
import { invalidArgument } from "../../errors.js";
import { newId } from "../../ids.js";
import { resolveSigner } from "../../wallets/signer.js";
import { signEthereumTransaction } from "../../signing/index.js";
import { defineActivity } from "../../operations/define.js";
import type { ActivityContext } from "../types.js";
import type { EvmChain } from "../../networks/evm-chain.js";
import { RpcError } from "../../networks/rpc.js";
import { lazyModule } from "../../lazy-module.js";

const viem = lazyModule<typeof import("viem")>("viem");
const viemAccounts = lazyModule<typeof import("viem/accounts")>("viem/accounts");

type EthSendParams = {
  from: string;
  caip2: string;
  sponsor?: boolean;
  nonce?: string;
  gasLimit?: string;
  maxFeePerGas?: string;
  maxPriorityFeePerGas?: string;
  calls?: { to: string; value?: string; data?: string }[];
  to?: string;
  value?: string;
  data?: string;
};

/** Gas for a call whose estimate reverts: it is still sent, so the chain records the revert. */
const REVERTING_CALL_GAS = 1_000_000n;

function uint(value: string | undefined, field: string): bigint | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) throw invalidArgument(`${field} must be a non-negative integer (decimal or 0x-hex), got ${JSON.stringify(value)}`, field);
  return BigInt(value);
}

/** The one call of the intent: V2 `calls` (a single entry) or the original top-level fields. */
function theCall(p: EthSendParams): { to: Hex; value: bigint; data: Hex } {
  const calls = p.calls ?? [{ to: p.to ?? "", ...(p.value !== undefined ? { value: p.value } : {}), ...(p.data !== undefined ? { data: p.data } : {}) }];
  const base = p.calls ? "parameters.calls[0]" : "parameters";
  if (calls.length !== 1) throw invalidArgument(`calls must hold exactly one call here: batching several calls needs the sponsored smart-account path, which this emulator does not run (got ${calls.length})`, "parameters.calls");
  const c = calls[0]!;
  if (!viem.isAddress(c.to, { strict: false })) throw invalidArgument(`to must be a 0x-prefixed 20-byte address, got ${JSON.stringify(c.to)}`, `${base}.to`);
  const data = c.data ?? "0x";
  if (!viem.isHex(data) || data.length % 2 !== 0) throw invalidArgument(`data must be 0x-prefixed hex bytes`, `${base}.data`);
  return { to: viem.getAddress(c.to), value: uint(c.value, `${base}.value`) ?? 0n, data: data as Hex };
}

function chainRejection(err: unknown): never {
  if (!(err instanceof RpcError)) throw err;
  const m = err.message.toLowerCase();
  if (m.includes("insufficient funds")) throw invalidArgument(`insufficient funds: ${err.message}`, "parameters.from");
  if (m.includes("nonce too low") || m.includes("nonce too high") || m.includes("nonce")) throw invalidArgument(err.message, "parameters.nonce");
  if (m.includes("gas")) throw invalidArgument(err.message, "parameters.gasLimit");
  throw invalidArgument(`the chain rejected the transaction: ${err.message}`, "parameters");
}

async function ethSend(ctx: ActivityContext, p: EthSendParams): Promise<{ sendTransactionStatusId: string }> {
  const networks = ctx.rt.networks;
  if (!networks) throw invalidArgument("this emulator instance runs no chains", "parameters.caip2");
  if (p.sponsor) throw invalidArgument("sponsor: true needs the gas station, which this emulator does not run yet; send unsponsored", "parameters.sponsor");
  const signer = (() => {
    try {
      return resolveSigner(ctx.rt, ctx.org.id, p.from);
    } catch {
      throw invalidArgument(`from ${JSON.stringify(p.from)} is not a wallet account or private key of organization ${ctx.org.id}`, "parameters.from");
    }
  })();
  if (signer.key.curve !== "CURVE_SECP256K1") throw invalidArgument(`from ${p.from} is a ${signer.key.curve} key; Ethereum needs CURVE_SECP256K1`, "parameters.from");
  const from = viemAccounts.privateKeyToAddress(viem.toHex(signer.key.privateKey));
  const call = theCall(p);
  const nonceIn = uint(p.nonce, "parameters.nonce");
  const gasIn = uint(p.gasLimit, "parameters.gasLimit");
  const maxFeeIn = uint(p.maxFeePerGas, "parameters.maxFeePerGas");
  const tipIn = uint(p.maxPriorityFeePerGas, "parameters.maxPriorityFeePerGas");
  const chain = (await networks.evm(p.caip2, "parameters.caip2")) as EvmChain;
  const [nonce, fees] = await Promise.all([nonceIn ?? chain.getNonce(from), chain.getFeeData()]);
  const tip = tipIn ?? (fees.maxPriorityFeePerGas > 0n ? fees.maxPriorityFeePerGas : 1_000_000_000n);
  const maxFee = maxFeeIn ?? fees.baseFeePerGas * 2n + tip;
  if (maxFee < tip) throw invalidArgument("maxFeePerGas must be at least maxPriorityFeePerGas", "parameters.maxFeePerGas");
  const gas =
    gasIn ??
    (await chain.estimateGas({ from, to: call.to, data: call.data, value: call.value }).catch((err: unknown) => {
      if (!(err instanceof RpcError)) throw err;
      if (err.message.toLowerCase().includes("insufficient funds")) chainRejection(err);
      return REVERTING_CALL_GAS;
    }));
  const balance = await chain.getBalance(from);
  if (balance < call.value + gas * maxFee) {
    throw invalidArgument(`insufficient funds: ${from} holds ${balance} wei on ${chain.caip2}, the transaction needs up to ${call.value + gas * maxFee} (value + gasLimit * maxFeePerGas)`, "parameters.from");
  }
  const unsigned = viem.serializeTransaction({ type: "eip1559", chainId: chain.chainId, nonce: Number(nonce), to: call.to, value: call.value, data: call.data, gas, maxFeePerGas: maxFee, maxPriorityFeePerGas: tip });
  const signed = signEthereumTransaction(signer.key.privateKey, unsigned);
  const txHash = await chain.sendRawTransaction(signed).catch(chainRejection);
  const id = newId();
  ctx.rt.store.tx(() =>
    ctx.rt.store.sendTransactions.insert({ id, orgId: ctx.org.id, activityId: ctx.activityId, caip2: chain.caip2, namespace: "eip155", txHash, fromAddress: from, createdAt: ctx.now }),
  );
  return { sendTransactionStatusId: id };
}

/** What the policy engine sees: the signer and the transaction as an unsigned EIP-1559 payload. */
function ethSubjects(p: EthSendParams) {
  try {
    const call = theCall(p);
    const chainId = Number(p.caip2.split(":")[1]);
    const unsigned = viem.serializeTransaction({ type: "eip1559", chainId, to: call.to, value: call.value, data: call.data, ...(p.nonce && /^[0-9]+$/.test(p.nonce) ? { nonce: Number(p.nonce) } : {}) });
    return { signWith: p.from, address: p.from, transaction: { type: "TRANSACTION_TYPE_ETHEREUM", unsigned } };
  } catch {
    return { signWith: p.from, address: p.from };
  }
}

export const sendTransactionOperations = [
  defineActivity("eth_send_transaction", {
    legacy: ["ACTIVITY_TYPE_ETH_SEND_TRANSACTION"],
    subjects: (p) => ethSubjects(p as EthSendParams),
    // Broadcasting is asynchronous: the handler records its status row itself, after the chain accepted the transaction.
    run: (ctx, p) => ethSend(ctx, p as EthSendParams),
  }),
];
