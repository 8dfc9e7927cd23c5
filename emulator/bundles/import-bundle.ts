/**
 * Import flow.
 *  - `importBundle` (init_import_wallet / init_import_private_key): the signed envelope with
 *    data = hex(JSON{organizationId, userId, targetPublic: uncompressed hex of a fresh target key}).
 *  - `encryptedBundle` (import_wallet / import_private_key): JSON {encappedPublic, ciphertext} made by
 *    @turnkey/crypto `encryptWalletToBundle` / `encryptPrivateKeyToBundle`; kem_context and AAD use
 *    `targetPublic` exactly as it appeared in the import bundle.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { base58 } from "@scure/base";
import { validateMnemonic } from "@scure/bip39";
import { wordlist as english } from "@scure/bip39/wordlists/english.js";
import { InputError, inputAt } from "../core/input-error.js";
import { hpkeOpen } from "./hpke.js";
import { decodeHex, generateP256KeyPair, type P256KeyPair } from "./p256.js";
import { signEnvelopeData } from "./signed-envelope.js";
import type { RandomBytes } from "../core/random.js";
import { EXPORT_BUNDLE_VERSION } from "./export-bundle.js";

export type MadeImportBundle = {
  importBundle: string;
  /** Keep this (server side) to open the later `encryptedBundle`. */
  targetPrivateKey: Uint8Array;
  /** `targetPublic` exactly as written into the bundle (uncompressed lowercase hex). */
  targetPublicHex: string;
};

export function makeImportBundle(params: {
  organizationId: string;
  userId: string;
  signerKey: P256KeyPair;
  targetKey?: P256KeyPair;
  /** Where a target key is drawn from when none is given (the instance's `rt.random`). */
  random?: RandomBytes;
}): MadeImportBundle {
  const target = params.targetKey ?? generateP256KeyPair(params.random);
  const targetPublicHex = bytesToHex(target.publicKey);
  const signed = signEnvelopeData(
    { organizationId: params.organizationId, userId: params.userId, targetPublic: targetPublicHex },
    params.signerKey,
  );
  // `version` is not read by the SDK; included for symmetry with export bundles (UNCONFIRMED upstream).
  return {
    importBundle: JSON.stringify({ version: EXPORT_BUNDLE_VERSION, ...signed }),
    targetPrivateKey: target.privateKey,
    targetPublicHex,
  };
}

const FIELD = "encryptedBundle";

/** Opens an import `encryptedBundle`; returns the plaintext bytes. Throws InputErrors at `encryptedBundle` (or a part of it) on malformed input. */
export function openEncryptedImportBundle(
  encryptedBundleJson: string,
  targetPrivateKey: Uint8Array,
  targetPublicHexAsInBundle: string,
): Uint8Array {
  let parsed: { encappedPublic?: unknown; ciphertext?: unknown };
  try {
    parsed = JSON.parse(encryptedBundleJson);
  } catch {
    throw new InputError("encrypted bundle is not valid JSON", FIELD);
  }
  if (typeof parsed?.encappedPublic !== "string" || typeof parsed.ciphertext !== "string")
    throw new InputError("encrypted bundle must contain encappedPublic and ciphertext", FIELD);
  const enc = decodeHex(parsed.encappedPublic, FIELD);
  const ciphertext = decodeHex(parsed.ciphertext, FIELD);
  const recipientPublicKeyAsGiven = decodeHex(targetPublicHexAsInBundle, "targetPublic");
  return inputAt(FIELD, () => hpkeOpen(enc, ciphertext, targetPrivateKey, { recipientPublicKeyAsGiven }));
}

/** Wallet import plaintext → the mnemonic (UTF-8, trimmed, must be a valid English BIP-39 phrase); the plaintext is the whole input of its InputErrors. */
export function parseImportedWallet(plaintext: Uint8Array): string {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(plaintext);
  } catch {
    throw new InputError("invalid mnemonic: not UTF-8");
  }
  const mnemonic = text.trim().split(/\s+/).join(" ");
  if (!validateMnemonic(mnemonic, english)) throw new InputError("invalid mnemonic");
  return mnemonic;
}

export type ImportKeyFormat = "HEXADECIMAL" | "SOLANA";

/**
 * Private-key import → the raw 32-byte key.
 * - bytes: the decrypted plaintext, which the SDK already decoded client-side (must be 32 bytes);
 * - string: the client-side form, decoded like the SDK: HEXADECIMAL = hex with optional 0x,
 *   SOLANA = base58 of a 64-byte secret key, first 32 bytes kept.
 */
export function parseImportedPrivateKey(input: Uint8Array | string, keyFormat: ImportKeyFormat | string = "HEXADECIMAL"): Uint8Array {
  let key: Uint8Array;
  if (typeof input !== "string") key = input;
  else if (keyFormat === "SOLANA") {
    let decoded: Uint8Array;
    try {
      decoded = base58.decode(input);
    } catch {
      throw new InputError("invalid SOLANA private key: not base58");
    }
    if (decoded.length !== 64) throw new InputError(`invalid key length. Expected 64 bytes. Got ${decoded.length}.`);
    key = decoded.subarray(0, 32);
  } else key = decodeHex(input, "privateKey");
  if (key.length !== 32) throw new InputError(`invalid private key length. Expected 32 bytes. Got ${key.length}.`);
  return Uint8Array.from(key);
}

