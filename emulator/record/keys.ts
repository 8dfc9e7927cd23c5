/**
 * The replay's own keys: for every public key the recording used (a recorded user's API key, a
 * session key an app generated, an export's target key), a fresh pair of the same kind that
 * the replay holds, so that it can stamp as the recorded users and open what is sealed to it.
 * They live only for one replay; none is written anywhere but the replay's emulator.
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";

export type KeyPair = { publicKey: string; privateKey: string; curve: "p256" | "secp256k1" | "ed25519" };

/** A fresh pair whose public key has the form of `recorded` (P-256 compressed or uncompressed; `curveType` names another curve). */
export function keyPairLike(recorded: string, curveType?: string): KeyPair {
  if (curveType === "API_KEY_CURVE_ED25519") {
    const secret = ed25519.utils.randomSecretKey();
    return { curve: "ed25519", privateKey: bytesToHex(secret), publicKey: bytesToHex(ed25519.getPublicKey(secret)) };
  }
  if (curveType === "API_KEY_CURVE_SECP256K1") {
    const secret = secp256k1.utils.randomSecretKey();
    return { curve: "secp256k1", privateKey: bytesToHex(secret), publicKey: bytesToHex(secp256k1.getPublicKey(secret, true)) };
  }
  const secret = p256.utils.randomSecretKey();
  const uncompressed = /^04[0-9a-fA-F]{128}$/.test(recorded);
  return { curve: "p256", privateKey: bytesToHex(secret), publicKey: bytesToHex(p256.getPublicKey(secret, !uncompressed)) };
}

/** Looks like a public key a request introduces (hex, 32 to 65 bytes). */
export const isPublicKeyHex = (s: string): boolean => /^(0x)?[0-9a-fA-F]{64,130}$/.test(s);

/** The X-Stamp of `body` with a P-256 pair (the official stamper): header name and value. */
export async function stampWith(key: KeyPair, body: string): Promise<{ name: string; value: string; signature: string }> {
  // The stamper takes the compressed public key; an uncompressed one is the same key.
  const compressed = bytesToHex(p256.getPublicKey(Buffer.from(key.privateKey, "hex"), true));
  const s = await new ApiKeyStamper({ apiPublicKey: compressed, apiPrivateKey: key.privateKey }).stamp(body);
  const signature = (JSON.parse(Buffer.from(s.stampHeaderValue, "base64url").toString("utf8")) as { signature: string }).signature;
  return { name: s.stampHeaderName, value: s.stampHeaderValue, signature };
}
