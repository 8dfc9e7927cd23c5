/** ADDRESS_FORMAT_TRON: Base58Check(0x41 || the 20 Ethereum address bytes) -> "T…". */
import { base58 } from "@scure/base";
import { concatBytes } from "@noble/hashes/utils.js";
import { ethereumAddressBytes } from "./ethereum.js";
import { withChecksum } from "./hash.js";

export function tronAddress(publicKey: Uint8Array): string {
  return base58.encode(withChecksum(concatBytes(new Uint8Array([0x41]), ethereumAddressBytes(publicKey))));
}
