/**
 * The sending service of the chain families: what every operation that hands a transaction to a
 * chain shares (sends, gas station, Earn, swaps): the signer a `from` names, the chain's
 * refusal as bad input, and the record of each send (its status is then read from the chain by
 * the chain watcher).
 */
import type { Hex } from "viem";
import { invalidArgument } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import { lazyModule } from "../../core/lazy-module.js";
import type { SigningKey } from "../../signing/index.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { chainEffect, type ChainEffect } from "../../core/vocabulary/define.js";
import { RpcError } from "./rpc.js";
import { chainWatcher } from "./watch.js";

const viem = lazyModule<typeof import("viem")>("viem");
const viemAccounts = lazyModule<typeof import("viem/accounts")>("viem/accounts");

export function chainRejection(err: unknown): never {
  if (!(err instanceof RpcError)) throw err;
  const m = err.message.toLowerCase();
  if (m.includes("insufficient funds")) throw invalidArgument(`insufficient funds: ${err.message}`, "parameters.from");
  if (m.includes("nonce too low") || m.includes("nonce too high") || m.includes("nonce")) throw invalidArgument(err.message, "parameters.nonce");
  if (m.includes("gas")) throw invalidArgument(err.message, "parameters.gasLimit");
  throw invalidArgument(`the chain rejected the transaction: ${err.message}`, "parameters");
}

/** The organization's secp256k1 key named by `from` (a wallet account or private key address), and its address. */
export function ethSigner(ctx: ActivityContext, from: string, field = "parameters.from"): { key: SigningKey; address: Hex } {
  const name = field.split(".").pop();
  const signer = (() => {
    try {
      return ctx.signer(from);
    } catch {
      throw invalidArgument(`${name} ${quote(from)} is not a wallet account or private key of organization ${ctx.org.id}`, field);
    }
  })();
  if (signer.key.curve !== "CURVE_SECP256K1") throw invalidArgument(`${name} ${from} is a ${signer.key.curve} key; Ethereum needs CURVE_SECP256K1`, field);
  return { key: signer.key, address: viemAccounts.privateKeyToAddress(viem.toHex(signer.key.privateKey)) };
}

/** What a send handed to a chain: recorded as a send-transaction status row (its fate is read from the chain). */
export type SentTransaction = {
  caip2: string;
  namespace: "eip155" | "solana";
  txHash: string;
  from: string;
  sponsored?: boolean;
  kind?: "send" | "undelegate" | "raw" | "swap";
  /** A refusal at broadcast (a failed Solana preflight): the status is FAILED with it. */
  error?: Record<string, unknown>;
};

/** Records every send (EVM and Solana alike), in the transaction that settles its activity, and wakes the chain watcher; answers the status id. */
export function recordSend(ctx: ActivityContext, sent: SentTransaction): string {
  const id = ctx.rt.random.uuid();
  ctx.rt.store.sendTransactions.insert({
    id,
    orgId: ctx.org.id,
    activityId: ctx.activityId,
    caip2: sent.caip2,
    namespace: sent.namespace,
    txHash: sent.txHash,
    fromAddress: sent.from,
    createdAt: ctx.now,
    sponsored: !!sent.sponsored,
    kind: sent.kind ?? "send",
    error: sent.error ?? null,
  });
  chainWatcher(ctx.rt)?.poke();
  return id;
}

/** A send as a chain effect: `send` hands the transaction to the chain; its status row is recorded with the activity. */
export function sendEffect(ctx: ActivityContext, send: () => Promise<SentTransaction>): ChainEffect<SentTransaction> {
  return chainEffect(send, (sent) => ({ sendTransactionStatusId: recordSend(ctx, sent) }));
}

/** An EVM send on `chain`. */
export const evmSent = (chain: { caip2: string }, txHash: string, from: string, extra: Pick<SentTransaction, "sponsored" | "kind"> = {}): SentTransaction => ({ caip2: chain.caip2, namespace: "eip155", txHash, from, ...extra });
