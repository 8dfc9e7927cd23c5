/** Hex decoding for request fields: accepts an optional `0x`, rejects anything else with an InputError at the field. */
import { bytesToHex } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";

const HEX_BODY = /^[0-9a-fA-F]*$/;

export function stripHexPrefix(value: string): string {
  return value.startsWith("0x") || value.startsWith("0X") ? value.slice(2) : value;
}

/** Decodes `value` as hex (with or without `0x`); throws an InputError at `field` when it is not hex. */
export function decodeHexField(value: string, field: string): Uint8Array {
  if (typeof value !== "string") throw new InputError(`${field} must be a hex string`, field);
  const body = stripHexPrefix(value);
  if (!HEX_BODY.test(body)) throw new InputError(`${field} is not valid hex`, field);
  if (body.length % 2 !== 0) throw new InputError(`${field} has an odd number of hex digits`, field);
  const out = new Uint8Array(body.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(body.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/** Lowercase hex without `0x`. */
export function toHex(bytes: Uint8Array): string {
  return bytesToHex(bytes);
}
