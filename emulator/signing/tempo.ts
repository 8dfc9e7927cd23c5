/**
 * sign_transaction TRANSACTION_TYPE_TEMPO (type 0x76): the sender's secp256k1 signature
 * over a Tempo transaction, produced the way viem's own Tempo account does it:
 * digest = keccak256(unsigned Tempo serialization, with any fee-payer signature replaced by
 * the 0x00 "fee payer will sign" marker), then viem/tempo `Transaction.serialize(tx, sig)`.
 *
 * Only root-key secp256k1 sender signatures: keychain (access-key) and configurable-account
 * envelopes are not produced.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import type { Hex } from "viem";
import type { Transaction } from "viem/tempo";
import { InputError } from "../core/input-error.js";
import { describeError } from "./error-text.js";
import { decodeHexField, stripHexPrefix, toHex } from "./hex.js";
import { ecdsaRecoverable } from "./raw-payload.js";

const FIELD = "unsignedTransaction";

/** viem/tempo costs most of a second to import: it is loaded on the first Tempo signature. */
let tempo: Promise<typeof import("viem/tempo")> | undefined;

export async function signTempoTransaction(privateKey: Uint8Array, unsignedHex: string): Promise<string> {
  const { Transaction } = await (tempo ??= import("viem/tempo"));
  const bytes = decodeHexField(unsignedHex, FIELD);
  if (bytes[0] !== 0x76) {
    throw new InputError(`${FIELD}: a Tempo transaction starts with the type byte 0x76`, FIELD);
  }
  const serialized = `0x${stripHexPrefix(unsignedHex).toLowerCase()}` as `0x76${string}`;
  let tx: Transaction.TransactionSerializableTempo;
  try {
    tx = Transaction.deserialize(serialized) as Transaction.TransactionSerializableTempo;
  } catch (e) {
    throw new InputError(`${FIELD}: could not parse Tempo transaction: ${describeError(e)}`, FIELD);
  }
  if (tx.signature !== undefined) {
    throw new InputError(`${FIELD}: transaction already carries a sender signature; send the unsigned serialization`, FIELD);
  }
  const presign = tx.feePayerSignature ? { ...tx, feePayerSignature: null } : tx;
  let preimage: Hex;
  try {
    preimage = await Transaction.serialize(presign);
  } catch (e) {
    throw new InputError(`${FIELD}: invalid Tempo transaction: ${describeError(e)}`, FIELD);
  }
  const sig = ecdsaRecoverable(secp256k1, keccak_256(decodeHexField(preimage, FIELD)), privateKey);
  const signed = await Transaction.serialize(tx, {
    r: `0x${toHex(sig.r)}`,
    s: `0x${toHex(sig.s)}`,
    yParity: sig.recovery,
  });
  return stripHexPrefix(signed);
}
