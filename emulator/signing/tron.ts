/**
 * sign_transaction TRANSACTION_TYPE_TRON: `raw_data_hex` in, the signed `Transaction`
 * protobuf hex out (what `/wallet/broadcasthex` accepts):
 *   txID = sha256(raw_data); signature = r ‖ s ‖ (recovery id + 27), as TronWeb produces;
 *   Transaction { bytes raw_data = 1; repeated bytes signature = 2; }.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";
import { decodeHexField, toHex } from "./hex.js";
import { ecdsaRecoverable } from "./raw-payload.js";

const FIELD = "unsignedTransaction";

export function tronTransactionId(rawData: Uint8Array): Uint8Array {
  return sha256(rawData);
}

export function signTronTransaction(privateKey: Uint8Array, rawDataHex: string): string {
  const rawData = decodeHexField(rawDataHex, FIELD);
  if (rawData.length === 0) throw new InputError(`${FIELD} must not be empty`, FIELD);
  const sig = ecdsaRecoverable(secp256k1, tronTransactionId(rawData), privateKey);
  const signature = concatBytes(sig.r, sig.s, Uint8Array.of(sig.recovery + 27));
  return toHex(concatBytes(lengthDelimited(1, rawData), lengthDelimited(2, signature)));
}

/** Protobuf field with wire type 2 (length-delimited). */
function lengthDelimited(fieldNumber: number, value: Uint8Array): Uint8Array {
  return concatBytes(varint((fieldNumber << 3) | 2), varint(value.length), value);
}

function varint(n: number): Uint8Array {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return Uint8Array.from(out);
}
