/** ADDRESS_FORMAT_SOLANA: base58 of the 32-byte ed25519 public key. */
import { base58 } from "@scure/base";
import { ed25519Key } from "./pubkey.js";

export function solanaAddress(publicKey: Uint8Array): string {
  return base58.encode(ed25519Key(publicKey));
}
