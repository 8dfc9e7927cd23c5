/**
 * ADDRESS_FORMAT_COSMOS and ADDRESS_FORMAT_SEI: bech32(hrp, RIPEMD160(SHA256(compressed secp256k1 key))).
 * HRP "cosmos" or "sei". (Sei's hash is the Cosmos SDK secp256k1 one; UNCONFIRMED for the service.)
 */
import { bech32 } from "@scure/base";
import { hash160 } from "./hash.js";
import { secp256k1Compressed } from "./pubkey.js";

export function cosmosAddress(publicKey: Uint8Array, hrp = "cosmos"): string {
  return bech32.encode(hrp, bech32.toWords(hash160(secp256k1Compressed(publicKey))));
}
