/** ADDRESS_FORMAT_ETHEREUM: 0x + last 20 bytes of keccak256(X||Y), EIP-55 mixed-case checksum. */
import { keccak_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { weierstrassKey } from "./pubkey.js";

/** The 20 address bytes of a secp256k1 key (shared with Tron). */
export function ethereumAddressBytes(publicKey: Uint8Array): Uint8Array {
  const { uncompressed } = weierstrassKey("CURVE_SECP256K1", publicKey);
  return keccak_256(uncompressed.subarray(1)).subarray(12);
}

/** EIP-55 checksum casing of a 40-hex-char lowercase address body. */
export function toChecksumAddress(lowerHex: string): string {
  const hash = bytesToHex(keccak_256(utf8ToBytes(lowerHex)));
  let out = "0x";
  for (let i = 0; i < lowerHex.length; i++) {
    out += parseInt(hash[i]!, 16) >= 8 ? lowerHex[i]!.toUpperCase() : lowerHex[i];
  }
  return out;
}

export function ethereumAddress(publicKey: Uint8Array): string {
  return toChecksumAddress(bytesToHex(ethereumAddressBytes(publicKey)));
}
