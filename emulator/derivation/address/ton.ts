/**
 * ADDRESS_FORMAT_TON_V3R2 / _V4R2 / _V5R1: address of the standard wallet contract for an
 * ed25519 key on workchain 0, i.e. the representation hash of its StateInit cell.
 *
 * Cells are hashed by hand (no TON library at run time). A cell's representation hash only
 * needs each child's hash and depth, so the wallet code cells are carried as constants
 * (their hash and depth; the tests check the full addresses against @ton/ton).
 *
 * Initial data, as @ton/ton's WalletContract*.create({ workchain: 0, publicKey }) builds it:
 * - V3R2: seqno:uint32=0, subwallet_id:uint32=698983191, public_key:bits256
 * - V4R2: seqno, subwallet_id, public_key, plugins:(HashmapE)=empty bit 0
 * - V5R1: is_signature_allowed:bit=1, seqno:uint32=0, wallet_id:int32, public_key,
 *   extensions:(HashmapE)=empty bit 0; wallet_id = networkGlobalId(-239, mainnet) XOR
 *   context, context = 1 bit "client" || workchain:int8 || version:uint8=0 || subwallet:uint15=0.
 *
 * String form: user-friendly, url-safe base64, bounceable, not test-only ("EQ…"): the
 * default of @ton/core's Address.toString(). The service's exact form is UNCONFIRMED.
 */
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, hexToBytes } from "@noble/hashes/utils.js";
import { base64urlnopad } from "@scure/base";
import { crc16xmodem } from "./stellar.js";
import { ed25519Key } from "./pubkey.js";

export type TonWalletVersion = "V3R2" | "V4R2" | "V5R1";

/** Default subwallet id for workchain 0 (698983191 + workchain). */
export const TON_DEFAULT_SUBWALLET_ID = 698983191;
const MAINNET_GLOBAL_ID = -239;

interface CellRef {
  hash: Uint8Array;
  depth: number;
}

const WALLET_CODE: Record<TonWalletVersion, CellRef> = {
  V3R2: { hash: hexToBytes("84dafa449f98a6987789ba232358072bc0f76dc4524002a5d0918b9a75d2d599"), depth: 0 },
  V4R2: { hash: hexToBytes("feb5ff6820e2ff0d9483e7e0d62c817d846789fb4ae580c878866d959dabd5c0"), depth: 7 },
  V5R1: { hash: hexToBytes("20834b7b72b112147e1b2fb457b84e74d1a30f04f737d4f62a668e9552d2b72f"), depth: 6 },
};

/** A bit string under construction. */
class Bits {
  private bits: number[] = [];
  bit(b: 0 | 1 | boolean): this {
    this.bits.push(b ? 1 : 0);
    return this;
  }
  uint(value: number, width: number): this {
    for (let i = width - 1; i >= 0; i--) this.bits.push(Math.floor(value / 2 ** i) % 2);
    return this;
  }
  bytes(data: Uint8Array): this {
    for (const byte of data) this.uint(byte, 8);
    return this;
  }
  get length(): number {
    return this.bits.length;
  }
  /** Bytes padded per TVM rules: when not byte-aligned, append a 1 bit then zeros. */
  padded(): Uint8Array {
    const bits = [...this.bits];
    if (bits.length % 8) {
      bits.push(1);
      while (bits.length % 8) bits.push(0);
    }
    const out = new Uint8Array(bits.length / 8);
    bits.forEach((b, i) => (out[i >> 3]! |= b << (7 - (i & 7))));
    return out;
  }
}

/** Representation hash and depth of an ordinary (level 0) cell. */
function cell(data: Bits, refs: CellRef[] = []): CellRef {
  const d1 = refs.length;
  const d2 = Math.ceil(data.length / 8) + Math.floor(data.length / 8);
  const depths = refs.map((r) => new Uint8Array([r.depth >> 8, r.depth & 0xff]));
  const hash = sha256(concatBytes(new Uint8Array([d1, d2]), data.padded(), ...depths, ...refs.map((r) => r.hash)));
  const depth = refs.length ? 1 + Math.max(...refs.map((r) => r.depth)) : 0;
  return { hash, depth };
}

function v5r1WalletId(workchain: number, subwallet = 0): number {
  // context = 1 | workchain:int8 | version:uint8 (v5r1 = 0) | subwallet:uint15, read as int32.
  const context = (1 << 31) | ((workchain & 0xff) << 23) | (0 << 15) | (subwallet & 0x7fff);
  return (MAINNET_GLOBAL_ID ^ context) >>> 0;
}

function walletData(version: TonWalletVersion, publicKey: Uint8Array): Bits {
  const b = new Bits();
  switch (version) {
    case "V3R2":
      return b.uint(0, 32).uint(TON_DEFAULT_SUBWALLET_ID, 32).bytes(publicKey);
    case "V4R2":
      return b.uint(0, 32).uint(TON_DEFAULT_SUBWALLET_ID, 32).bytes(publicKey).bit(0);
    case "V5R1":
      return b.bit(1).uint(0, 32).uint(v5r1WalletId(0), 32).bytes(publicKey).bit(0);
  }
}

/** Account id (32-byte StateInit hash) of the wallet contract. */
export function tonWalletAccountId(version: TonWalletVersion, publicKey: Uint8Array): Uint8Array {
  const data = cell(walletData(version, ed25519Key(publicKey)));
  // StateInit: split_depth absent, special absent, code present, data present, library empty.
  const stateInit = cell(new Bits().bit(0).bit(0).bit(1).bit(1).bit(0), [WALLET_CODE[version], data]);
  return stateInit.hash;
}

/** User-friendly form: base64url(flags || workchain || account id || CRC16-XModem big-endian). */
export function tonFriendly(workchain: number, accountId: Uint8Array, opts = { bounceable: true, testOnly: false }): string {
  const tag = (opts.bounceable ? 0x11 : 0x51) | (opts.testOnly ? 0x80 : 0);
  const body = concatBytes(new Uint8Array([tag, workchain & 0xff]), accountId);
  const crc = crc16xmodem(body);
  return base64urlnopad.encode(concatBytes(body, new Uint8Array([crc >> 8, crc & 0xff])));
}

export function tonAddress(version: TonWalletVersion, publicKey: Uint8Array): string {
  return tonFriendly(0, tonWalletAccountId(version, publicKey));
}
