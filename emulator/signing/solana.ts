/**
 * sign_transaction TRANSACTION_TYPE_SOLANA: the full serialized transaction (empty signature
 * slots allowed) in, the same transaction with this key's slot filled out. Other slots are
 * kept as they were. The signature is ed25519 over the message bytes.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";
import { InputError } from "../core/input-error.js";
import { decodeHexField, toHex } from "./hex.js";
import { parseSolanaTransaction } from "./solana-wire.js";

const FIELD = "unsignedTransaction";

export function signSolanaTransaction(privateKey32: Uint8Array, unsignedHex: string): string {
  const tx = decodeHexField(unsignedHex, FIELD);
  if (tx.length === 0) throw new InputError(`${FIELD} must not be empty`, FIELD);
  const layout = parseSolanaTransaction(tx);
  const publicKey = ed25519.getPublicKey(privateKey32);
  const signerIndex = layout.staticAccountKeys
    .slice(0, layout.numRequiredSignatures)
    .findIndex((k) => equalBytes(k, publicKey));
  if (signerIndex < 0) {
    throw new InputError(
      `${FIELD}: ${base58.encode(publicKey)} is not a required signer of this transaction`,
      FIELD,
    );
  }
  const message = tx.subarray(layout.messageOffset);
  const signature = ed25519.sign(message, privateKey32);
  const out = tx.slice();
  out.set(signature, layout.signaturesOffset + signerIndex * 64);
  return toHex(out);
}

function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
