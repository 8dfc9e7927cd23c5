/**
 * Solana transaction wire format, parsed just far enough to sign:
 *   compact-u16 signature count ‖ 64-byte signatures ‖ message
 * where the message is legacy or versioned (v0: first byte 0x80 | version) and holds
 * header(3) ‖ compact-u16 n ‖ n×32-byte static account keys ‖ 32-byte blockhash ‖
 * instructions ‖ (v0 only) address-table lookups.
 * Every length is checked and the message must be consumed exactly.
 */
import { InputError } from "../core/input-error.js";

const FIELD = "unsignedTransaction";

export type SolanaTransactionLayout = {
  signatureCount: number;
  /** Byte offset of the first signature slot in the transaction. */
  signaturesOffset: number;
  /** Byte offset where the message starts (end of the signature slots). */
  messageOffset: number;
  version: "legacy" | 0;
  numRequiredSignatures: number;
  staticAccountKeys: Uint8Array[];
};

function malformed(reason: string): never {
  throw new InputError(`${FIELD}: malformed Solana transaction: ${reason}`, FIELD);
}

class Reader {
  constructor(
    private readonly bytes: Uint8Array,
    public offset = 0,
  ) {}
  u8(what: string): number {
    if (this.offset >= this.bytes.length) malformed(`truncated at ${what}`);
    return this.bytes[this.offset++]!;
  }
  take(n: number, what: string): Uint8Array {
    if (this.offset + n > this.bytes.length) malformed(`truncated at ${what}`);
    const out = this.bytes.subarray(this.offset, this.offset + n);
    this.offset += n;
    return out;
  }
  /** Solana "shortvec": little-endian base-128, at most 3 bytes, value < 2^16, minimal encoding. */
  compactU16(what: string): number {
    let value = 0;
    for (let i = 0; i < 3; i++) {
      const byte = this.u8(what);
      value |= (byte & 0x7f) << (7 * i);
      if ((byte & 0x80) === 0) {
        if (i > 0 && byte === 0) malformed(`non-minimal length encoding at ${what}`);
        if (value > 0xffff) malformed(`length out of range at ${what}`);
        return value;
      }
    }
    malformed(`length encoding too long at ${what}`);
  }
  get remaining(): number {
    return this.bytes.length - this.offset;
  }
}

export function parseSolanaTransaction(tx: Uint8Array): SolanaTransactionLayout {
  const r = new Reader(tx);
  const signatureCount = r.compactU16("signature count");
  const signaturesOffset = r.offset;
  r.take(signatureCount * 64, "signatures");
  const messageOffset = r.offset;

  let version: "legacy" | 0 = "legacy";
  const first = r.u8("message header");
  let numRequiredSignatures = first;
  if (first & 0x80) {
    const v = first & 0x7f;
    if (v !== 0) malformed(`unsupported message version ${v}`);
    version = 0;
    numRequiredSignatures = r.u8("message header");
  }
  const numReadonlySigned = r.u8("message header");
  const numReadonlyUnsigned = r.u8("message header");

  const keyCount = r.compactU16("account key count");
  const staticAccountKeys: Uint8Array[] = [];
  for (let i = 0; i < keyCount; i++) staticAccountKeys.push(r.take(32, "account keys"));

  if (numRequiredSignatures === 0) malformed("message requires no signatures");
  if (numRequiredSignatures > keyCount) malformed("more required signers than account keys");
  if (numReadonlySigned >= numRequiredSignatures) malformed("no writable signer (fee payer) in header");
  if (numReadonlyUnsigned > keyCount - numRequiredSignatures) malformed("readonly unsigned count exceeds unsigned accounts");
  if (signatureCount !== numRequiredSignatures) {
    malformed(`signature count ${signatureCount} does not match the message's ${numRequiredSignatures} required signatures`);
  }

  r.take(32, "recent blockhash");
  const instructionCount = r.compactU16("instruction count");
  const programIndexes: number[] = [];
  for (let i = 0; i < instructionCount; i++) {
    programIndexes.push(r.u8(`instruction ${i} program id index`));
    const accounts = r.compactU16(`instruction ${i} account count`);
    r.take(accounts, `instruction ${i} accounts`);
    const dataLen = r.compactU16(`instruction ${i} data length`);
    r.take(dataLen, `instruction ${i} data`);
  }
  let lookedUp = 0;
  if (version === 0) {
    const lookups = r.compactU16("address table lookup count");
    for (let i = 0; i < lookups; i++) {
      r.take(32, `address table lookup ${i} key`);
      const writable = r.compactU16(`address table lookup ${i} writable count`);
      r.take(writable, `address table lookup ${i} writable indexes`);
      const readonly = r.compactU16(`address table lookup ${i} readonly count`);
      r.take(readonly, `address table lookup ${i} readonly indexes`);
      lookedUp += writable + readonly;
    }
  }
  if (r.remaining !== 0) malformed(`${r.remaining} trailing bytes after the message`);
  if (keyCount + lookedUp > 256) malformed("too many account addresses (more than 256)");
  for (const [i, idx] of programIndexes.entries()) {
    if (idx >= keyCount + lookedUp) malformed(`instruction ${i} program id index ${idx} is out of range`);
    if (idx >= keyCount) malformed(`instruction ${i} program id comes from an address lookup table`);
  }
  return { signatureCount, signaturesOffset, messageOffset, version, numRequiredSignatures, staticAccountKeys };
}
