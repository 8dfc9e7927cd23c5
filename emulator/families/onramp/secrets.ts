/**
 * On-ramp provider secrets as clients send them: `@turnkey/crypto`'s `encryptOnRampSecret`
 * makes bs58check( compressed HPKE enc (33 bytes) ‖ AES-256-GCM ciphertext ) of the UTF-8
 * secret, sealed to the on-ramp encryption key (Turnkey's HPKE profile, bundles/hpke.ts).
 * The emulator holds that key per instance (InstanceKeys.onRamp) and publishes its public
 * half, compressed, in /emulator/v1/info as `onRampEncryptionPublicKey`: the form
 * `encryptOnRampSecret(secret, key)` takes.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { openCredentialBundle } from "../../bundles/credential-bundle.js";
import { compressedP256, type P256KeyPair } from "../../bundles/p256.js";
import { InputError } from "../../core/input-error.js";

/** The public half as 33-byte compressed lowercase hex (what encryptOnRampSecret uncompresses). */
export function onRampEncryptionPublicKey(key: P256KeyPair): string {
  return bytesToHex(compressedP256(key.publicKey));
}

/**
 * Opens an encrypted on-ramp secret; throws an InputError (no path: the caller names the
 * field) when it is not base58check, too short, or not sealed to `key`. The message never
 * holds any part of the secret.
 */
export function openOnRampSecret(envelope: string, key: P256KeyPair): string {
  if (!envelope) throw new InputError("must be set: the provider secret encrypted with encryptOnRampSecret to the emulator's onRampEncryptionPublicKey");
  let plain: Uint8Array;
  try {
    plain = openCredentialBundle(envelope, key.privateKey);
  } catch (e) {
    const why = e instanceof InputError ? e.message.replace(/credential bundle/g, "envelope") : "malformed envelope";
    throw new InputError(`could not be decrypted with the on-ramp encryption key (${why}); encrypt it with encryptOnRampSecret to onRampEncryptionPublicKey from /emulator/v1/info`);
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(plain);
  } catch {
    throw new InputError("decrypts to bytes that are not UTF-8 text");
  }
  if (!text) throw new InputError("decrypts to an empty secret");
  return text;
}
