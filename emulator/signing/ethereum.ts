/**
 * sign_transaction TRANSACTION_TYPE_ETHEREUM: unsigned serialized transaction hex → signed
 * serialized transaction hex (both without 0x on the wire; 0x is accepted on input).
 *
 * Supported: legacy (EIP-155 when the unsigned RLP carries `[chainId, 0x, 0x]`, pre-155
 * v = 27/28 otherwise), EIP-2930, EIP-1559, EIP-4844 (bare tx_payload_body only) and
 * EIP-7702. The digest is keccak256 of viem's canonical unsigned serialization of the
 * parsed transaction, and the output is viem `viem.serializeTransaction(tx, signature)`.
 */
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { lazyModule } from "../core/lazy-module.js";
import type { Hex, TransactionSerializable } from "viem";
import { InputError } from "../core/input-error.js";
import { describeError } from "./error-text.js";
import { decodeHexField, stripHexPrefix, toHex } from "./hex.js";
import { ecdsaRecoverable } from "./raw-payload.js";

const viem = lazyModule<typeof import("viem/utils")>("viem/utils");

const FIELD = "unsignedTransaction";

export function signEthereumTransaction(privateKey: Uint8Array, unsignedHex: string): string {
  const bytes = decodeHexField(unsignedHex, FIELD);
  if (bytes.length === 0) throw new InputError(`${FIELD} must not be empty`, FIELD);
  const serialized = `0x${stripHexPrefix(unsignedHex).toLowerCase()}` as Hex;
  const typeByte = bytes[0]!;
  if (typeByte === 0x76 || typeByte === 0x78) {
    throw new InputError(`${FIELD}: Tempo transactions must be sent with type TRANSACTION_TYPE_TEMPO`, FIELD);
  }
  if (typeByte < 0xc0 && ![0x01, 0x02, 0x03, 0x04].includes(typeByte)) {
    throw new InputError(`${FIELD}: unsupported Ethereum transaction type 0x${typeByte.toString(16).padStart(2, "0")}`, FIELD);
  }

  let tx: ReturnType<typeof viem.parseTransaction>;
  try {
    tx = viem.parseTransaction(serialized);
  } catch (e) {
    throw new InputError(`${FIELD}: could not parse Ethereum transaction: ${describeError(e)}`, FIELD);
  }
  const parsed = tx as Record<string, unknown>;
  if (parsed.r !== undefined || parsed.s !== undefined || parsed.v !== undefined || parsed.yParity !== undefined) {
    throw new InputError(`${FIELD}: transaction is already signed (it carries v, r, s); send the unsigned serialization`, FIELD);
  }
  if (parsed.sidecars !== undefined || parsed.blobs !== undefined) {
    throw new InputError(
      `${FIELD}: EIP-4844 network wrapper (blobs, commitments, proofs) is not accepted; send only the tx_payload_body`,
      FIELD,
    );
  }

  const unsigned = tx as TransactionSerializable;
  let preimage: Hex;
  try {
    preimage = viem.serializeTransaction(unsigned);
  } catch (e) {
    throw new InputError(`${FIELD}: invalid Ethereum transaction: ${describeError(e)}`, FIELD);
  }
  const digest = keccak_256(decodeHexField(preimage, FIELD));
  const sig = ecdsaRecoverable(secp256k1, digest, privateKey);
  const yParity = sig.recovery;
  const signed = viem.serializeTransaction(unsigned, {
    r: `0x${toHex(sig.r)}`,
    s: `0x${toHex(sig.s)}`,
    // viem derives the legacy v (EIP-155 or 27/28) from this and the chainId.
    v: 27n + BigInt(yParity),
    yParity,
  });
  return stripHexPrefix(signed);
}
