/**
 * sol_send_transaction: signs a Solana transaction with the organization's keys named by
 * `signWiths` (V2) or `signWith` (the original intent) and submits it to the cluster of its
 * caip2. Sponsored (`sponsor: true`): the emulator's gas-station fee payer becomes the
 * transaction's fee payer (fee-payer substitution) and signs too, and a fresh blockhash is used
 * unless `recentBlockhash` is given. A transaction the cluster refuses in preflight is recorded
 * FAILED with the simulation's error and logs (by send-transactions.ts, which records every
 * send); its status reads that back.
 */
import { base58 } from "@scure/base";
import { invalidArgument } from "../../core/errors.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import { RpcError } from "./rpc.js";
import { parseSolanaTransaction, type SolanaTx } from "./solana-wire.js";
import { equalBytes, isZero, rewritten, signWith } from "./solana-message.js";
import { SOLANA_FEE_PAYER_ADDRESS, SOLANA_FEE_PAYER_FLOAT, SOLANA_FEE_PAYER_KEY, SOLANA_FEE_PAYER_PUBLIC_KEY, topUp } from "./sponsor-keys.js";
import { solanaErrorMessage } from "./solana-errors.js";
import { checkSponsorshipAllowed } from "./gas-station/usage.js";
import type { SentTransaction } from "./sending.js";
import { quote } from "../../core/input-error.js";
import { requireNetworks } from "./networks.js";

export type SolSendParams = { unsignedTransaction: string; signWiths?: string[]; signWith?: string; sponsor?: boolean; caip2: string; recentBlockhash?: string };

const MAX_SIGNERS = 16;

function signersOf(p: SolSendParams): { list: string[]; field: string } {
  if (p.signWiths !== undefined) {
    if (p.signWiths.length < 1 || p.signWiths.length > MAX_SIGNERS) throw invalidArgument(`signWiths must list 1 to ${MAX_SIGNERS} signers, got ${p.signWiths.length}`, "parameters.signWiths");
    const dup = p.signWiths.find((s, i) => p.signWiths!.indexOf(s) !== i);
    if (dup) throw invalidArgument(`signWiths lists ${dup} twice`, "parameters.signWiths");
    return { list: p.signWiths, field: "parameters.signWiths" };
  }
  if (!p.signWith) throw invalidArgument("signWith is required", "parameters.signWith");
  return { list: [p.signWith], field: "parameters.signWith" };
}

function decodeTransaction(hex: string): SolanaTx {
  const clean = hex.startsWith("0x") ? hex.slice(2) : hex;
  if (!clean || clean.length % 2 !== 0 || !/^[0-9a-fA-F]+$/.test(clean)) throw invalidArgument("unsignedTransaction must be the hex of a serialized Solana transaction", "parameters.unsignedTransaction");
  try {
    return parseSolanaTransaction(Uint8Array.from(Buffer.from(clean, "hex")));
  } catch (err) {
    throw invalidArgument(`unsignedTransaction is not a Solana transaction: ${(err as Error).message}`, "parameters.unsignedTransaction");
  }
}

function decodeBlockhash(value: string): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(value);
  } catch {
    throw invalidArgument(`recentBlockhash ${quote(value)} is not base58`, "parameters.recentBlockhash");
  }
  if (bytes.length !== 32) throw invalidArgument(`recentBlockhash must be 32 bytes, got ${bytes.length}`, "parameters.recentBlockhash");
  return bytes;
}

/** Signs and submits; answers what was sent, for send-transactions.ts to record (with the preflight refusal, if any). */
export async function solSend(ctx: ActivityContext, p: SolSendParams): Promise<SentTransaction> {
  const networks = requireNetworks(ctx.rt, "parameters.caip2");
  const signers = signersOf(p);
  const keys = signers.list.map((address, i) => {
    const field = p.signWiths ? `${signers.field}[${i}]` : signers.field;
    let signer;
    try {
      signer = ctx.signer(address);
    } catch {
      throw invalidArgument(`${address} is not a wallet account or private key of organization ${ctx.org.id}`, field);
    }
    if (signer.key.curve !== "CURVE_ED25519") throw invalidArgument(`${address} is a ${signer.key.curve} key; Solana needs CURVE_ED25519`, field);
    return { address, field, privateKey: signer.key.privateKey, publicKey: signer.publicKey };
  });
  let tx = decodeTransaction(p.unsignedTransaction);
  const blockhashIn = p.recentBlockhash ? decodeBlockhash(p.recentBlockhash) : undefined;
  if (p.sponsor) await checkSponsorshipAllowed(ctx);
  const chain = await networks.solana(p.caip2, "parameters.caip2");

  if (p.sponsor) {
    // Fee-payer substitution (unless the fee payer is already ours) and a fresh blockhash, in one rewrite.
    const feePayer = equalBytes(tx.accountKeys[0]!, SOLANA_FEE_PAYER_PUBLIC_KEY) ? {} : { feePayer: SOLANA_FEE_PAYER_PUBLIC_KEY };
    const blockhash = blockhashIn ?? base58.decode((await chain.getLatestBlockhash()).blockhash);
    try {
      tx = rewritten(tx, { ...feePayer, blockhash });
    } catch (err) {
      throw invalidArgument(`cannot sponsor this transaction: ${(err as Error).message}`, "parameters.unsignedTransaction");
    }
  } else if (blockhashIn && !equalBytes(blockhashIn, tx.recentBlockhash)) {
    tx = rewritten(tx, { blockhash: blockhashIn });
  }

  // Every required signer must be one of ours (or, unsponsored, already have signed the unchanged message).
  const required = tx.accountKeys.slice(0, tx.header.numRequiredSignatures);
  for (const k of keys) {
    if (!required.some((r) => equalBytes(r, k.publicKey))) throw invalidArgument(`${k.address} is not a required signer of this transaction`, k.field);
  }
  required.forEach((r, i) => {
    const ours = keys.some((k) => equalBytes(k.publicKey, r)) || (p.sponsor && equalBytes(r, SOLANA_FEE_PAYER_PUBLIC_KEY));
    if (!ours && isZero(tx.signatures[i]!)) throw invalidArgument(`the transaction needs a signature from ${base58.encode(r)}, which ${signers.field} does not name`, signers.field);
  });
  if (!p.sponsor && isZero(tx.recentBlockhash)) throw invalidArgument("the transaction has no recent blockhash (all zeros): set one or pass recentBlockhash (only sponsored sends fetch one)", "parameters.recentBlockhash");

  if (p.sponsor) await topUp(chain, SOLANA_FEE_PAYER_ADDRESS, SOLANA_FEE_PAYER_FLOAT);
  const { wire, signature } = signWith(tx, [...(p.sponsor ? [SOLANA_FEE_PAYER_KEY] : []), ...keys.map((k) => k.privateKey)]);
  let error: Record<string, unknown> | undefined;
  try {
    await chain.sendRawTransaction(wire);
  } catch (err) {
    if (!(err instanceof RpcError)) throw err;
    error = preflightFailure(err);
  }
  return { caip2: chain.caip2, namespace: "solana", txHash: signature, from: base58.encode(tx.accountKeys[p.sponsor ? 1 : 0]!), sponsored: !!p.sponsor, ...(error ? { error } : {}) };
}

/** A refusal in preflight, in the published TxError shape (`solana.source: "preflight"`). */
function preflightFailure(err: RpcError): Record<string, unknown> {
  const data = (err.data ?? {}) as { err?: unknown; logs?: string[]; unitsConsumed?: number };
  const message = data.err !== undefined ? solanaErrorMessage(data.err) : err.message;
  return {
    message,
    solana: {
      source: "preflight",
      rpcCode: err.code,
      rpcMessage: err.message,
      ...(data.err !== undefined ? { transactionErrorJson: JSON.stringify(data.err) } : {}),
      ...(data.logs ? { logs: data.logs } : {}),
      ...(data.unitsConsumed !== undefined ? { unitsConsumed: String(data.unitsConsumed) } : {}),
    },
  };
}

/** What the policy engine sees: the first signer and the transaction as submitted. */
export function solSubjects(p: SolSendParams) {
  const signWith = p.signWiths?.[0] ?? p.signWith;
  return { ...(signWith ? { signWith, address: signWith } : {}), transaction: { type: "TRANSACTION_TYPE_SOLANA", unsigned: p.unsignedTransaction } };
}
