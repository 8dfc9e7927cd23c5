/**
 * Rewriting a Solana transaction before it is signed (one pass): a new recent blockhash, and fee-payer
 * substitution (a sponsor becomes account 0, the first signer, so that it pays the fee while
 * every original signer still signs). Serializes back to the wire format that
 * `parseSolanaTransaction` reads (legacy and v0).
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { parseSolanaTransaction, signatureOf, type SolanaTx } from "./solana-wire.js";

function shortvec(n: number): number[] {
  const out: number[] = [];
  let v = n;
  for (;;) {
    const byte = v & 0x7f;
    v >>= 7;
    if (v === 0) {
      out.push(byte);
      return out;
    }
    out.push(byte | 0x80);
  }
}

/** The message bytes (what every signer signs). */
export function serializeMessage(tx: Omit<SolanaTx, "signatures" | "message" | "blockhashOffset">): Uint8Array {
  const out: number[] = [];
  if (tx.version === 0) out.push(0x80);
  out.push(tx.header.numRequiredSignatures, tx.header.numReadonlySignedAccounts, tx.header.numReadonlyUnsignedAccounts);
  out.push(...shortvec(tx.accountKeys.length));
  for (const k of tx.accountKeys) out.push(...k);
  out.push(...tx.recentBlockhash);
  out.push(...shortvec(tx.instructions.length));
  for (const ix of tx.instructions) {
    out.push(ix.programIdIndex, ...shortvec(ix.accounts.length), ...ix.accounts, ...shortvec(ix.data.length), ...ix.data);
  }
  if (tx.version === 0) {
    out.push(...shortvec(tx.addressTableLookups.length));
    for (const l of tx.addressTableLookups) {
      out.push(...l.accountKey, ...shortvec(l.writableIndexes.length), ...l.writableIndexes, ...shortvec(l.readonlyIndexes.length), ...l.readonlyIndexes);
    }
  }
  return Uint8Array.from(out);
}

/** The whole transaction: signature slots (as they are) then the message. */
export function serializeTransaction(signatures: Uint8Array[], message: Uint8Array): Uint8Array {
  const head = shortvec(signatures.length);
  const out = new Uint8Array(head.length + 64 * signatures.length + message.length);
  out.set(head, 0);
  signatures.forEach((s, i) => out.set(s, head.length + 64 * i));
  out.set(message, head.length + 64 * signatures.length);
  return out;
}

/**
 * A copy of the transaction rewritten in one pass, every signature slot emptied (the message
 * changed): `blockhash` replaces the recent blockhash; `feePayer` is fee-payer substitution, the
 * payer becoming account 0 (a writable signer) with every account index moved up by one
 * (lookup-table indexes address the tables, not the account list, so they stay).
 */
export function rewritten(tx: SolanaTx, change: { feePayer?: Uint8Array; blockhash?: Uint8Array }): SolanaTx {
  const { feePayer, blockhash } = change;
  if (feePayer && tx.accountKeys.some((k) => equalBytes(k, feePayer))) throw new Error("the sponsor's fee payer is already an account of this transaction");
  const next = {
    ...tx,
    ...(blockhash ? { recentBlockhash: blockhash } : {}),
    ...(feePayer
      ? {
          header: { ...tx.header, numRequiredSignatures: tx.header.numRequiredSignatures + 1 },
          accountKeys: [feePayer, ...tx.accountKeys],
          instructions: tx.instructions.map((ix) => ({ programIdIndex: ix.programIdIndex + 1, accounts: ix.accounts.map((a) => a + 1), data: ix.data })),
        }
      : {}),
  };
  if (next.accountKeys.length + tx.addressTableLookups.reduce((n, l) => n + l.writableIndexes.length + l.readonlyIndexes.length, 0) > 256) {
    throw new Error("the transaction has no room for a fee payer (256 accounts at most)");
  }
  const message = serializeMessage(next);
  return parseSolanaTransaction(serializeTransaction(Array.from({ length: next.header.numRequiredSignatures }, () => new Uint8Array(64)), message));
}

/** Fills the signature slot of each key in `keys` (ed25519 32-byte seeds); returns the wire bytes and the transaction's id (its first signature, base58). */
export function signWith(tx: SolanaTx, keys: Uint8Array[]): { wire: Uint8Array; signature: string } {
  const signatures = tx.signatures.map((s) => Uint8Array.from(s));
  for (const key of keys) {
    const publicKey = ed25519.getPublicKey(key);
    const i = tx.accountKeys.slice(0, tx.header.numRequiredSignatures).findIndex((k) => equalBytes(k, publicKey));
    if (i < 0) throw new Error("the key is not a required signer of this transaction");
    signatures[i] = ed25519.sign(tx.message, key);
  }
  return { wire: serializeTransaction(signatures, tx.message), signature: signatureOf({ ...tx, signatures }) };
}

export function isZero(bytes: Uint8Array): boolean {
  return bytes.every((b) => b === 0);
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
