/** ADDRESS_FORMAT_SUI: 0x + hex(BLAKE2b-256(0x00 flag || ed25519 public key)). */
import { blake2b } from "@noble/hashes/blake2.js";
import { bytesToHex, concatBytes } from "@noble/hashes/utils.js";
import { ed25519Key } from "./pubkey.js";

export function suiAddress(publicKey: Uint8Array): string {
  return "0x" + bytesToHex(blake2b(concatBytes(new Uint8Array([0x00]), ed25519Key(publicKey)), { dkLen: 32 }));
}
