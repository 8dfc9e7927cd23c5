/** ADDRESS_FORMAT_APTOS: single-key ed25519 authentication key, 0x + hex(SHA3-256(public key || 0x00)). */
import { sha3_256 } from "@noble/hashes/sha3.js";
import { bytesToHex, concatBytes } from "@noble/hashes/utils.js";
import { ed25519Key } from "./pubkey.js";

export function aptosAddress(publicKey: Uint8Array): string {
  return "0x" + bytesToHex(sha3_256(concatBytes(ed25519Key(publicKey), new Uint8Array([0x00]))));
}
