/** ADDRESS_FORMAT_XRP: classic address, XRP-alphabet Base58Check(0x00 || HASH160(compressed key)) -> "r…". */
import { base58xrp } from "@scure/base";
import { concatBytes } from "@noble/hashes/utils.js";
import { hash160, withChecksum } from "./hash.js";
import { secp256k1Compressed } from "./pubkey.js";

export function xrpAddress(publicKey: Uint8Array): string {
  return base58xrp.encode(withChecksum(concatBytes(new Uint8Array([0x00]), hash160(secp256k1Compressed(publicKey)))));
}
