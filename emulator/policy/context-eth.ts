/**
 * `eth.tx` from an unsigned (or signed) serialized Ethereum transaction, and
 * `eth.eip_712` from EIP-712 typed data. All hex strings (addresses, data) are
 * lowercased; integers are bigint.
 */
import { lazyModule } from "../core/lazy-module.js";
import type { Abi, AbiFunction, AbiParameter, Hex } from "viem";
import { invalidArgument } from "../core/errors.js";

const viem = lazyModule<typeof import("viem/utils")>("viem/utils");

const TX_TYPE: Record<string, string> = {
  legacy: "LEGACY",
  eip2930: "TYPE_1",
  eip1559: "TYPE_2",
  eip4844: "TYPE_3",
  eip7702: "TYPE_4",
};

export interface EthTxOptions {
  /** The signing address (the transaction itself does not carry it). */
  from?: string;
  /** ABI uploaded for `to`; enables function_name, function_signature and contract_call_args. */
  abi?: Abi;
}

const hexOf = (s: string) => (s.startsWith("0x") || s.startsWith("0X") ? `0x${s.slice(2)}` : `0x${s}`) as Hex;

export function buildEthTxContext(unsignedTransaction: string, options: EthTxOptions = {}): Record<string, unknown> {
  let tx: ReturnType<typeof viem.parseTransaction>;
  try {
    tx = viem.parseTransaction(hexOf(unsignedTransaction.trim()));
  } catch (e) {
    throw invalidArgument(`invalid Ethereum transaction: ${(e as Error).message.split("\n")[0]}`, "unsignedTransaction");
  }
  const out: Record<string, unknown> = {
    type: TX_TYPE[tx.type ?? "legacy"] ?? "LEGACY",
    data: (tx.data ?? "0x").toLowerCase(),
    value: tx.value ?? 0n,
    gas: tx.gas ?? 0n,
    nonce: BigInt(tx.nonce ?? 0),
  };
  if (options.from) out.from = options.from.toLowerCase();
  if (tx.to) out.to = tx.to.toLowerCase();
  if (tx.chainId !== undefined) out.chain_id = BigInt(tx.chainId);
  if ("gasPrice" in tx && tx.gasPrice !== undefined) out.gas_price = tx.gasPrice;
  if ("maxFeePerGas" in tx && tx.maxFeePerGas !== undefined) {
    out.max_fee_per_gas = tx.maxFeePerGas;
    out.gas_price = tx.maxFeePerGas;
  }
  if ("maxPriorityFeePerGas" in tx && tx.maxPriorityFeePerGas !== undefined) out.max_priority_fee_per_gas = tx.maxPriorityFeePerGas;
  if ("maxFeePerBlobGas" in tx && tx.maxFeePerBlobGas !== undefined) out.max_fee_per_blob_gas = tx.maxFeePerBlobGas;
  if (options.abi && tx.data && tx.data.length >= 10) Object.assign(out, decodeCall(options.abi, tx.data));
  return out;
}

function decodeCall(abi: Abi, data: Hex): Record<string, unknown> {
  const selector = data.slice(0, 10).toLowerCase();
  const fn = abi.find((i): i is AbiFunction => i.type === "function" && viem.toFunctionSelector(i) === selector);
  if (!fn) return {};
  let args: readonly unknown[];
  try {
    args = (viem.decodeFunctionData({ abi: [fn], data }).args ?? []) as readonly unknown[];
  } catch {
    return {};
  }
  const callArgs: Record<string, unknown> = {};
  fn.inputs.forEach((param, i) => {
    callArgs[param.name || String(i)] = abiValue(param, args[i]);
  });
  return { function_name: fn.name, function_signature: viem.toFunctionSignature(fn), contract_call_args: callArgs };
}

/** Tuples become positional lists; addresses and bytes lowercase hex; integers bigint. */
function abiValue(param: AbiParameter, v: unknown): unknown {
  const arr = /^(.*)\[\d*\]$/.exec(param.type);
  if (arr) {
    const inner = { ...param, type: arr[1]! } as AbiParameter;
    return (v as readonly unknown[]).map((x) => abiValue(inner, x));
  }
  if (param.type === "tuple") {
    const comps = (param as { components: readonly AbiParameter[] }).components;
    return comps.map((c, i) => abiValue(c, Array.isArray(v) ? v[i] : (v as Record<string, unknown>)[c.name ?? String(i)]));
  }
  if (typeof v === "number") return BigInt(v);
  if (typeof v === "string" && (param.type === "address" || param.type.startsWith("bytes"))) return v.toLowerCase();
  return v;
}

export interface TypedDataInput {
  types: Record<string, readonly { name: string; type: string }[]>;
  primaryType: string;
  domain?: Record<string, unknown>;
  message: Record<string, unknown>;
}

const DOMAIN_FIELDS: Record<string, [string, string]> = {
  name: ["name", "string"],
  version: ["version", "string"],
  chainId: ["chain_id", "uint256"],
  verifyingContract: ["verifying_contract", "address"],
  salt: ["salt", "bytes32"],
};

/** `eth.eip_712` from typed data (a JSON string or object): `{primary_type, domain, message}`. */
export function buildEip712Context(typedData: string | TypedDataInput): Record<string, unknown> {
  let td: TypedDataInput;
  try {
    td = typeof typedData === "string" ? (JSON.parse(typedData) as TypedDataInput) : typedData;
    if (!td || typeof td !== "object" || typeof td.primaryType !== "string" || !td.types || !td.message) throw new Error("missing types, primaryType or message");
    viem.validateTypedData(td as Parameters<typeof viem.validateTypedData>[0]);
  } catch (e) {
    throw invalidArgument(`invalid EIP-712 typed data: ${(e as Error).message.split("\n")[0]}`, "payload");
  }
  const domain: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(td.domain ?? {})) {
    const f = DOMAIN_FIELDS[key];
    if (f && value !== undefined && value !== null) domain[f[0]] = typedValue(td.types, f[1], value);
  }
  return { primary_type: td.primaryType, domain, message: typedValue(td.types, td.primaryType, td.message) };
}

function typedValue(types: TypedDataInput["types"], type: string, v: unknown): unknown {
  const arr = /^(.*)\[\d*\]$/.exec(type);
  if (arr) {
    if (!Array.isArray(v)) throw invalidArgument(`invalid EIP-712 typed data: expected an array for ${type}`, "payload");
    return v.map((x) => typedValue(types, arr[1]!, x));
  }
  const struct = types[type];
  if (struct) {
    const obj = (v ?? {}) as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const f of struct) out[f.name] = typedValue(types, f.type, obj[f.name]);
    return out;
  }
  if (/^u?int\d*$/.test(type)) {
    try {
      return BigInt(v as string | number | bigint);
    } catch {
      throw invalidArgument(`invalid EIP-712 typed data: ${String(v)} is not an integer`, "payload");
    }
  }
  if (type === "address" || type.startsWith("bytes")) return String(v).toLowerCase();
  if (type === "bool") return v === true || v === "true";
  return v === undefined || v === null ? v : String(v);
}
