/** ADDRESS_FORMAT_DOGE_MAINNET / _TESTNET: P2PKH Base58Check with version 0x1e ("D…") / 0x71 ("n…"). */
import { base58 } from "@scure/base";
import { concatBytes } from "@noble/hashes/utils.js";
import { hash160, withChecksum } from "./hash.js";
import { secp256k1Compressed } from "./pubkey.js";

export const DOGE_P2PKH_VERSION = { mainnet: 0x1e, testnet: 0x71 } as const;

export function dogeAddress(publicKey: Uint8Array, network: keyof typeof DOGE_P2PKH_VERSION): string {
  const payload = concatBytes(new Uint8Array([DOGE_P2PKH_VERSION[network]]), hash160(secp256k1Compressed(publicKey)));
  return base58.encode(withChecksum(payload));
}
