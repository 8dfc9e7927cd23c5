/**
 * `tron.tx` from a Tron transaction's `raw_data_hex` (protobuf `Transaction.raw`).
 * Addresses are base58check (`T…`); byte fields are lowercase hex without `0x`;
 * integers are bigint.
 */
import { createBase58check, hex } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { invalidArgument } from "../core/errors.js";

const b58c = createBase58check(sha256);

type Field = { no: number; wire: number; int?: bigint; bytes?: Uint8Array };

/** Splits one protobuf message into its fields (varint, 64-bit, length-delimited, 32-bit). */
function fields(buf: Uint8Array): Field[] {
  const out: Field[] = [];
  let off = 0;
  const varint = (): bigint => {
    let v = 0n;
    for (let shift = 0n; shift < 70n; shift += 7n) {
      if (off >= buf.length) throw new Error("truncated varint");
      const b = buf[off++]!;
      v |= BigInt(b & 0x7f) << shift;
      if ((b & 0x80) === 0) return v;
    }
    throw new Error("varint too long");
  };
  const take = (n: number) => {
    if (off + n > buf.length) throw new Error("truncated field");
    const b = buf.subarray(off, off + n);
    off += n;
    return b;
  };
  while (off < buf.length) {
    const key = varint();
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    if (no === 0) throw new Error("invalid field number 0");
    if (wire === 0) out.push({ no, wire, int: varint() });
    else if (wire === 1) out.push({ no, wire, bytes: take(8) });
    else if (wire === 2) out.push({ no, wire, bytes: take(Number(varint())) });
    else if (wire === 5) out.push({ no, wire, bytes: take(4) });
    else throw new Error(`unsupported wire type ${wire}`);
  }
  return out;
}

/** int64 fields are encoded as two's-complement varints. */
const signed = (v: bigint) => (v >= 1n << 63n ? v - (1n << 64n) : v);

type Kind = "address" | "int" | "bytes" | "string" | "bool" | "resource" | "permission" | "permissions" | "keys";
type Schema = Record<number, [name: string, kind: Kind]>;

const RESOURCE = ["BANDWIDTH", "ENERGY", "TRON_POWER"];
const PERMISSION_TYPE = ["Owner", "Witness", "Active"];

const KEY: Schema = { 1: ["address", "address"], 2: ["weight", "int"] };
const PERMISSION: Schema = {
  1: ["type", "int"],
  2: ["id", "int"],
  3: ["permission_name", "string"],
  4: ["threshold", "int"],
  5: ["parent_id", "int"],
  6: ["operations", "bytes"],
  7: ["keys", "keys"],
};

/** Contract type number → name and parameter schema (supported types only). */
const CONTRACTS: Record<number, [string, Schema]> = {
  1: ["TransferContract", { 1: ["owner_address", "address"], 2: ["to_address", "address"], 3: ["amount", "int"] }],
  31: [
    "TriggerSmartContract",
    {
      1: ["owner_address", "address"],
      2: ["contract_address", "address"],
      3: ["call_value", "int"],
      4: ["data", "bytes"],
      5: ["call_token_value", "int"],
      6: ["token_id", "int"],
    },
  ],
  46: ["AccountPermissionUpdateContract", { 1: ["owner_address", "address"], 2: ["owner", "permission"], 3: ["witness", "permission"], 4: ["actives", "permissions"] }],
  54: ["FreezeBalanceV2Contract", { 1: ["owner_address", "address"], 2: ["frozen_balance", "int"], 3: ["resource", "resource"] }],
  55: ["UnfreezeBalanceV2Contract", { 1: ["owner_address", "address"], 2: ["unfreeze_balance", "int"], 3: ["resource", "resource"] }],
  57: [
    "DelegateResourceContract",
    {
      1: ["owner_address", "address"],
      2: ["resource", "resource"],
      3: ["balance", "int"],
      4: ["receiver_address", "address"],
      5: ["lock", "bool"],
      6: ["lock_period", "int"],
    },
  ],
  58: ["UnDelegateResourceContract", { 1: ["owner_address", "address"], 2: ["resource", "resource"], 3: ["balance", "int"], 4: ["receiver_address", "address"] }],
};

function decodeMessage(buf: Uint8Array, schema: Schema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  // proto3 defaults: resources default to BANDWIDTH, numbers to 0.
  for (const [name, kind] of Object.values(schema)) {
    if (kind === "int") out[name] = 0n;
    if (kind === "resource") out[name] = "BANDWIDTH";
    if (kind === "bool") out[name] = false;
    if (kind === "permissions" || kind === "keys") out[name] = [];
  }
  for (const f of fields(buf)) {
    const spec = schema[f.no];
    if (!spec) continue;
    const [name, kind] = spec;
    switch (kind) {
      case "address":
        out[name] = b58c.encode(need(f.bytes));
        break;
      case "bytes":
        out[name] = hex.encode(need(f.bytes));
        break;
      case "string":
        out[name] = new TextDecoder().decode(need(f.bytes));
        break;
      case "int":
        out[name] = signed(needInt(f));
        break;
      case "bool":
        out[name] = needInt(f) !== 0n;
        break;
      case "resource":
        out[name] = RESOURCE[Number(needInt(f))] ?? String(needInt(f));
        break;
      case "permission":
        out[name] = permission(need(f.bytes));
        break;
      case "permissions":
        (out[name] as unknown[]).push(permission(need(f.bytes)));
        break;
      case "keys":
        (out[name] as unknown[]).push(decodeMessage(need(f.bytes), KEY));
        break;
    }
  }
  return out;
}

function permission(buf: Uint8Array): Record<string, unknown> {
  const p = decodeMessage(buf, PERMISSION);
  p.type = PERMISSION_TYPE[Number(p.type)] ?? String(p.type);
  return p;
}

function need(b: Uint8Array | undefined): Uint8Array {
  if (!b) throw new Error("expected a length-delimited field");
  return b;
}
function needInt(f: Field): bigint {
  if (f.int === undefined) throw new Error("expected a varint field");
  return f.int;
}

function contract(buf: Uint8Array): Record<string, unknown> {
  let type = 0;
  let permissionId = 0n;
  let value: Uint8Array | undefined;
  for (const f of fields(buf)) {
    if (f.no === 1) type = Number(needInt(f));
    else if (f.no === 5) permissionId = needInt(f);
    else if (f.no === 2) {
      for (const g of fields(need(f.bytes))) if (g.no === 2) value = need(g.bytes);
    }
  }
  const known = CONTRACTS[type];
  if (!known) throw new Error(`unsupported contract type ${type}`);
  return { type: known[0], permission_id: permissionId, ...decodeMessage(value ?? new Uint8Array(), known[1]) };
}

export function buildTronTxContext(rawDataHex: string): Record<string, unknown> {
  try {
    const buf = hex.decode(rawDataHex.trim().replace(/^0x/i, "").toLowerCase());
    const out: Record<string, unknown> = { expiration: 0n, timestamp: 0n, fee_limit: 0n, data: "", ref_block_bytes: "", ref_block_hash: "", contract: [] };
    for (const f of fields(buf)) {
      switch (f.no) {
        case 1:
          out.ref_block_bytes = hex.encode(need(f.bytes));
          break;
        case 4:
          out.ref_block_hash = hex.encode(need(f.bytes));
          break;
        case 8:
          out.expiration = signed(needInt(f));
          break;
        case 10:
          out.data = hex.encode(need(f.bytes));
          break;
        case 11:
          (out.contract as unknown[]).push(contract(need(f.bytes)));
          break;
        case 14:
          out.timestamp = signed(needInt(f));
          break;
        case 18:
          out.fee_limit = signed(needInt(f));
          break;
      }
    }
    return out;
  } catch (e) {
    throw invalidArgument(`invalid Tron transaction: ${(e as Error).message}`, "unsignedTransaction");
  }
}
