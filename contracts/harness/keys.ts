/** Fresh P-256 API key pairs, generated per run under the names scenarios give them. */
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";

export type ApiKeyPair = { publicKey: string; privateKey: string };

/** The uncompressed (04…, 65-byte) form of a pair's public key, as export/import target keys are given. */
export const uncompressedPublicKey = (k: ApiKeyPair): string => bytesToHex(p256.getPublicKey(hexToBytes(k.privateKey), false));

export function newApiKeyPair(): ApiKeyPair {
  const secret = p256.utils.randomSecretKey();
  return { privateKey: bytesToHex(secret), publicKey: bytesToHex(p256.getPublicKey(secret, true)) };
}

export class KeyRing {
  private readonly keys = new Map<string, ApiKeyPair>();
  /** The pair named `name`, made on first use. */
  get(name: string): ApiKeyPair {
    let k = this.keys.get(name);
    if (!k) {
      k = newApiKeyPair();
      this.keys.set(name, k);
    }
    return k;
  }
}
