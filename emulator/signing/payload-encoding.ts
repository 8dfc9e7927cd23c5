/**
 * Turns a raw-payload request's `payload` + `encoding` into the bytes to sign.
 * HEXADECIMAL and TEXT_UTF8 give the message bytes; EIP712 and EIP7702_AUTHORIZATION
 * give the 32-byte Ethereum digest the service computes itself (viem `hashTypedData`,
 * `hashAuthorization`).
 */
import { lazyModule } from "../core/lazy-module.js";
import type { TypedDataDefinition } from "viem";
import { InputError } from "../core/input-error.js";
import { describeError } from "./error-text.js";
import { decodeHexField } from "./hex.js";

const viem = lazyModule<typeof import("viem/utils")>("viem/utils");

export const PAYLOAD_ENCODINGS = [
  "PAYLOAD_ENCODING_HEXADECIMAL",
  "PAYLOAD_ENCODING_TEXT_UTF8",
  "PAYLOAD_ENCODING_EIP712",
  "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION",
] as const;
export type PayloadEncoding = (typeof PAYLOAD_ENCODINGS)[number];

export function isPayloadEncoding(value: string): value is PayloadEncoding {
  return (PAYLOAD_ENCODINGS as readonly string[]).includes(value);
}

/** True for encodings whose bytes are already an Ethereum digest computed by the service. */
export function isDigestEncoding(encoding: PayloadEncoding): boolean {
  return encoding === "PAYLOAD_ENCODING_EIP712" || encoding === "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION";
}

export function decodePayload(payload: string, encoding: PayloadEncoding, field = "payload"): Uint8Array {
  if (typeof payload !== "string" || payload.length === 0) throw new InputError(`${field} must not be empty`, field);
  switch (encoding) {
    case "PAYLOAD_ENCODING_HEXADECIMAL": {
      const bytes = decodeHexField(payload, field);
      if (bytes.length === 0) throw new InputError(`${field} must not be empty`, field);
      return bytes;
    }
    case "PAYLOAD_ENCODING_TEXT_UTF8":
      return new TextEncoder().encode(payload);
    case "PAYLOAD_ENCODING_EIP712":
      return eip712Digest(payload, field);
    case "PAYLOAD_ENCODING_EIP7702_AUTHORIZATION":
      return eip7702Digest(payload, field);
  }
}

function parseJsonObject(payload: string, field: string, what: string): Record<string, unknown> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw new InputError(`${field} is not valid JSON for ${what}`, field);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new InputError(`${field} must be a JSON object for ${what}`, field);
  }
  return parsed as Record<string, unknown>;
}

function eip712Digest(payload: string, field: string): Uint8Array {
  const data = parseJsonObject(payload, field, "EIP-712 typed data");
  const { domain, types, primaryType, message } = data;
  if (!types || typeof types !== "object") throw new InputError(`${field}: EIP-712 typed data is missing "types"`, field);
  if (typeof primaryType !== "string") throw new InputError(`${field}: EIP-712 typed data is missing "primaryType"`, field);
  try {
    const hex = viem.hashTypedData({
      domain: (domain ?? {}) as TypedDataDefinition["domain"],
      types: types as TypedDataDefinition["types"],
      primaryType,
      message: (message ?? {}) as Record<string, unknown>,
    } as TypedDataDefinition);
    return decodeHexField(hex, field);
  } catch (e) {
    throw new InputError(`${field}: invalid EIP-712 typed data: ${describeError(e)}`, field);
  }
}

function eip7702Digest(payload: string, field: string): Uint8Array {
  const data = parseJsonObject(payload, field, "an EIP-7702 authorization");
  const address = data.address ?? data.contractAddress;
  if (typeof address !== "string" || !viem.isAddress(address, { strict: false })) {
    throw new InputError(`${field}: EIP-7702 authorization "address" must be a 20-byte hex address`, field);
  }
  const chainId = nonNegativeInteger(data.chainId, `${field}: EIP-7702 authorization "chainId"`, field);
  const nonce = nonNegativeInteger(data.nonce, `${field}: EIP-7702 authorization "nonce"`, field);
  const hex = viem.hashAuthorization({
    address,
    chainId: chainId as unknown as number,
    nonce: nonce as unknown as number,
  });
  return decodeHexField(hex, field);
}

/** Accepts a JSON number, a decimal string or a 0x-hex string; returns a bigint. */
function nonNegativeInteger(value: unknown, label: string, field: string): bigint {
  let n: bigint | undefined;
  if (typeof value === "number" && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === "string" && /^(0x[0-9a-fA-F]+|[0-9]+)$/.test(value)) n = BigInt(value);
  if (n === undefined || n < 0n) throw new InputError(`${label} must be a non-negative integer`, field);
  return n;
}
