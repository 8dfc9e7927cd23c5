/**
 * Solana's transaction wire format (legacy and v0), read without a Solana SDK: signatures,
 * header, static account keys, recent blockhash, instructions and address-table lookups.
 */
import { base58 } from "@scure/base";

export type SolanaInstruction = { programIdIndex: number; accounts: number[]; data: Uint8Array };
export type SolanaLookup = { accountKey: Uint8Array; writableIndexes: number[]; readonlyIndexes: number[] };
export type SolanaTx = {
  signatures: Uint8Array[];
  version: "legacy" | 0;
  header: { numRequiredSignatures: number; numReadonlySignedAccounts: number; numReadonlyUnsignedAccounts: number };
  accountKeys: Uint8Array[];
  recentBlockhash: Uint8Array;
  instructions: SolanaInstruction[];
  addressTableLookups: SolanaLookup[];
  /** The signed message bytes. */
  message: Uint8Array;
  /** Where the recent blockhash sits in the whole transaction (for replaceRecentBlockhash). */
  blockhashOffset: number;
};

class Reader {
  pos = 0;
  constructor(private readonly b: Uint8Array) {}
  byte(): number {
    if (this.pos >= this.b.length) throw new Error("transaction bytes end early");
    return this.b[this.pos++]!;
  }
  bytes(n: number): Uint8Array {
    if (this.pos + n > this.b.length) throw new Error("transaction bytes end early");
    const out = this.b.subarray(this.pos, this.pos + n);
    this.pos += n;
    return out;
  }
  shortvec(): number {
    let len = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const v = this.byte();
      len |= (v & 0x7f) << shift;
      if (!(v & 0x80)) return len;
    }
    throw new Error("bad compact-u16 length");
  }
}

export function parseSolanaTransaction(bytes: Uint8Array): SolanaTx {
  const r = new Reader(bytes);
  const signatures = Array.from({ length: r.shortvec() }, () => r.bytes(64));
  const messageStart = r.pos;
  let version: "legacy" | 0 = "legacy";
  let first = r.byte();
  if (first & 0x80) {
    if ((first & 0x7f) !== 0) throw new Error(`unsupported transaction version ${first & 0x7f}`);
    version = 0;
    first = r.byte();
  }
  const header = { numRequiredSignatures: first, numReadonlySignedAccounts: r.byte(), numReadonlyUnsignedAccounts: r.byte() };
  const accountKeys = Array.from({ length: r.shortvec() }, () => r.bytes(32));
  const blockhashOffset = r.pos;
  const recentBlockhash = r.bytes(32);
  const instructions = Array.from({ length: r.shortvec() }, () => ({ programIdIndex: r.byte(), accounts: [...r.bytes(r.shortvec())], data: r.bytes(r.shortvec()) }));
  const addressTableLookups =
    version === 0 ? Array.from({ length: r.shortvec() }, () => ({ accountKey: r.bytes(32), writableIndexes: [...r.bytes(r.shortvec())], readonlyIndexes: [...r.bytes(r.shortvec())] })) : [];
  if (r.pos !== bytes.length) throw new Error("trailing bytes after the transaction");
  if (signatures.length !== header.numRequiredSignatures) throw new Error(`the transaction carries ${signatures.length} signatures but its message requires ${header.numRequiredSignatures}`);
  if (accountKeys.length === 0) throw new Error("the transaction names no accounts (no fee payer)");
  return { signatures, version, header, accountKeys, recentBlockhash, instructions, addressTableLookups, message: bytes.subarray(messageStart), blockhashOffset };
}

/** A transaction's id: its first signature, base58. */
export function signatureOf(tx: SolanaTx): string {
  return base58.encode(tx.signatures[0]!);
}

/** Whether static account `i` is writable, from the message header. */
export function isWritable(tx: SolanaTx, i: number): boolean {
  const h = tx.header;
  if (i < h.numRequiredSignatures) return i < h.numRequiredSignatures - h.numReadonlySignedAccounts;
  return i < tx.accountKeys.length - h.numReadonlyUnsignedAccounts;
}
