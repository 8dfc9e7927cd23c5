/**
 * `credentialBundle`: bs58check( compressed enc (33) ‖ HPKE ciphertext ), plaintext = a raw
 * 32-byte P-256 API private key. Opened client-side by @turnkey/crypto `decryptCredentialBundle`.
 */
import { createBase58check } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";
import { hpkeOpen, hpkeSeal, type HpkeSealOptions } from "./hpke.js";
import { compressedP256 } from "./p256.js";

export const base58check = createBase58check(sha256);

export function encryptCredentialBundle(
  privateKey32: Uint8Array,
  targetPublicKeyHex: string,
  options: Pick<HpkeSealOptions, "ephemeralPrivateKey" | "random"> = {},
): string {
  if (privateKey32.length !== 32) throw new InputError("credential private key must be 32 bytes", "privateKey");
  const { enc, ciphertext } = hpkeSeal(privateKey32, targetPublicKeyHex, options);
  const compressedEnc = compressedP256(enc, "enc");
  return base58check.encode(concatBytes(compressedEnc, ciphertext));
}

/** The inverse, for tests and for the emulator's own tooling. Returns the plaintext bytes. */
export function openCredentialBundle(bundle: string, recipientPrivateKey: Uint8Array): Uint8Array {
  let bytes: Uint8Array;
  try {
    bytes = base58check.decode(bundle);
  } catch {
    throw new InputError("credential bundle is not valid base58check", "credentialBundle");
  }
  if (bytes.length <= 33) throw new InputError("credential bundle too short", "credentialBundle");
  return hpkeOpen(bytes.subarray(0, 33), bytes.subarray(33), recipientPrivateKey);
}
