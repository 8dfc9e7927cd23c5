/**
 * `solana.tx` from a serialized Solana transaction (legacy or v0), given as hex. Either
 * a full transaction (signatures + message, signatures may be zero) or a bare message.
 */
import { base58, hex } from "@scure/base";
import { invalidArgument } from "../core/errors.js";

export const SYSTEM_PROGRAM = "11111111111111111111111111111111";
export const TOKEN_PROGRAM = "TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA";
export const TOKEN_2022_PROGRAM = "TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb";
/** Stands for an account resolved through an address lookup table. */
export const LOOKUP_PLACEHOLDER = "ADDRESS_TABLE_LOOKUP";

class Reader {
  off = 0;
  constructor(readonly buf: Uint8Array) {}
  u8(): number {
    if (this.off >= this.buf.length) throw new Error("unexpected end of data");
    return this.buf[this.off++]!;
  }
  bytes(n: number): Uint8Array {
    if (this.off + n > this.buf.length) throw new Error("unexpected end of data");
    const out = this.buf.subarray(this.off, this.off + n);
    this.off += n;
    return out;
  }
  /** Solana compact-u16. */
  shortVec(): number {
    let value = 0;
    for (let shift = 0; shift < 21; shift += 7) {
      const b = this.u8();
      value |= (b & 0x7f) << shift;
      if ((b & 0x80) === 0) return value;
    }
    throw new Error("invalid compact-u16");
  }
  done(): boolean {
    return this.off === this.buf.length;
  }
}

interface RawInstruction {
  programIndex: number;
  accounts: number[];
  data: Uint8Array;
}
interface RawLookup {
  key: string;
  writable: number[];
  readonly: number[];
}
interface RawMessage {
  header: [number, number, number];
  keys: string[];
  blockhash: string;
  instructions: RawInstruction[];
  lookups: RawLookup[];
}

function readMessage(r: Reader): RawMessage {
  let first = r.u8();
  let versioned = false;
  if (first & 0x80) {
    if ((first & 0x7f) !== 0) throw new Error(`unsupported message version ${first & 0x7f}`);
    versioned = true;
    first = r.u8();
  }
  const header: [number, number, number] = [first, r.u8(), r.u8()];
  const keys = Array.from({ length: r.shortVec() }, () => base58.encode(r.bytes(32)));
  const blockhash = base58.encode(r.bytes(32));
  const instructions = Array.from({ length: r.shortVec() }, () => ({
    programIndex: r.u8(),
    accounts: Array.from(r.bytes(r.shortVec())),
    data: r.bytes(r.shortVec()),
  }));
  const lookups = versioned
    ? Array.from({ length: r.shortVec() }, () => ({
        key: base58.encode(r.bytes(32)),
        writable: Array.from(r.bytes(r.shortVec())),
        readonly: Array.from(r.bytes(r.shortVec())),
      }))
    : [];
  if (header[0] > keys.length || header[1] > header[0] || header[2] > keys.length - header[0]) throw new Error("inconsistent message header");
  return { header, keys, blockhash, instructions, lookups };
}

function decode(bytes: Uint8Array): RawMessage {
  try {
    const r = new Reader(bytes);
    const sigs = r.shortVec();
    r.bytes(64 * sigs);
    const msg = readMessage(r);
    if (r.done() && (msg.header[0] === sigs || sigs === 0)) return msg;
  } catch {
    // fall through: maybe a bare message
  }
  const r = new Reader(bytes);
  const msg = readMessage(r);
  if (!r.done()) throw new Error("trailing bytes after message");
  return msg;
}

const u64le = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 8).getBigUint64(0, true);
const u32le = (b: Uint8Array, at: number) => new DataView(b.buffer, b.byteOffset + at, 4).getUint32(0, true);

interface AccountRef {
  account_key: string;
  signer: boolean;
  writable: boolean;
}

export function buildSolanaTxContext(transactionHex: string): Record<string, unknown> {
  let msg: RawMessage;
  try {
    const clean = transactionHex.trim().replace(/^0x/i, "");
    msg = decode(hex.decode(clean.toLowerCase()));
  } catch (e) {
    throw invalidArgument(`invalid Solana transaction: ${(e as Error).message}`, "unsignedTransaction");
  }
  const [numSigners, roSigned, roUnsigned] = msg.header;
  const nStatic = msg.keys.length;
  const nLookupWritable = msg.lookups.reduce((n, l) => n + l.writable.length, 0);
  const nLookup = nLookupWritable + msg.lookups.reduce((n, l) => n + l.readonly.length, 0);
  const account = (idx: number): AccountRef => {
    if (idx < nStatic) {
      const writable = idx < numSigners ? idx < numSigners - roSigned : idx < nStatic - roUnsigned;
      return { account_key: msg.keys[idx]!, signer: idx < numSigners, writable };
    }
    if (idx < nStatic + nLookup) return { account_key: LOOKUP_PLACEHOLDER, signer: false, writable: idx < nStatic + nLookupWritable };
    throw invalidArgument(`invalid Solana transaction: account index ${idx} out of range`, "unsignedTransaction");
  };

  const programKeys: string[] = [];
  const instructions: Record<string, unknown>[] = [];
  const transfers: Record<string, unknown>[] = [];
  const splTransfers: Record<string, unknown>[] = [];
  for (const ix of msg.instructions) {
    if (ix.programIndex >= nStatic) {
      throw invalidArgument("invalid Solana transaction: program ids loaded from address lookup tables are not supported", "unsignedTransaction");
    }
    const program = msg.keys[ix.programIndex]!;
    if (!programKeys.includes(program)) programKeys.push(program);
    const accounts = ix.accounts.map(account);
    instructions.push({
      program_key: program,
      accounts,
      instruction_data_hex: hex.encode(ix.data),
      address_table_lookups: lookupsUsedBy(ix.accounts, msg.lookups, nStatic, nLookupWritable),
    });
    const keys = accounts.map((a) => a.account_key);
    if (program === SYSTEM_PROGRAM && ix.data.length >= 12 && u32le(ix.data, 0) === 2 && keys.length >= 2) {
      transfers.push({ from: keys[0], to: keys[1], amount: u64le(ix.data, 4) });
    }
    if (program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM) {
      const spl = splTransfer(ix.data, keys);
      if (spl) splTransfers.push(spl);
    }
  }
  return {
    account_keys: msg.keys,
    program_keys: programKeys,
    instructions,
    transfers,
    spl_transfers: splTransfers,
    recent_blockhash: msg.blockhash,
    address_table_lookups: msg.lookups.map((l) => ({ address_table_key: l.key, writable_indexes: l.writable.map(BigInt), readonly_indexes: l.readonly.map(BigInt) })),
  };
}

/** SPL Token / Token-2022 Transfer (3), TransferChecked (12) and TransferCheckedWithFee (26/1). */
function splTransfer(data: Uint8Array, keys: string[]): Record<string, unknown> | undefined {
  if (data[0] === 3 && data.length === 9 && keys.length >= 3) {
    return { from: keys[0], to: keys[1], owner: keys[2], signers: keys.slice(3), amount: u64le(data, 1) };
  }
  if (data[0] === 12 && data.length === 10 && keys.length >= 4) {
    return { from: keys[0], token_mint: keys[1], to: keys[2], owner: keys[3], signers: keys.slice(4), amount: u64le(data, 1) };
  }
  if (data[0] === 26 && data[1] === 1 && data.length === 19 && keys.length >= 4) {
    return { from: keys[0], token_mint: keys[1], to: keys[2], owner: keys[3], signers: keys.slice(4), amount: u64le(data, 2) };
  }
  return undefined;
}

/** The lookup-table entries an instruction's accounts resolve through. */
function lookupsUsedBy(accounts: number[], lookups: RawLookup[], nStatic: number, nWritable: number): Record<string, unknown>[] {
  const used = new Map<number, { w: bigint[]; r: bigint[] }>();
  for (const idx of accounts) {
    if (idx < nStatic) continue;
    let rel = idx - nStatic;
    const writable = rel < nWritable;
    if (!writable) rel -= nWritable;
    for (let t = 0; t < lookups.length; t++) {
      const list = writable ? lookups[t]!.writable : lookups[t]!.readonly;
      if (rel < list.length) {
        const entry = used.get(t) ?? { w: [], r: [] };
        (writable ? entry.w : entry.r).push(BigInt(list[rel]!));
        used.set(t, entry);
        break;
      }
      rel -= list.length;
    }
  }
  return [...used].map(([t, e]) => ({ address_table_key: lookups[t]!.key, writable_indexes: e.w, readonly_indexes: e.r }));
}
