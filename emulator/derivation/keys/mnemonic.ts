/**
 * BIP-39 mnemonics (English word list): generation, validation and seed derivation.
 * The seed uses OpenSSL's PBKDF2 (node:crypto), which is much faster than pure JS.
 */
import { pbkdf2Sync } from "node:crypto";
import { entropyToMnemonic, validateMnemonic as scureValidate } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import { InputError } from "../../core/input-error.js";
import { osRandom, type RandomBytes } from "../../core/random.js";

export const MNEMONIC_LENGTHS = [12, 15, 18, 21, 24] as const;
export type MnemonicLength = (typeof MNEMONIC_LENGTHS)[number];

/** A fresh English mnemonic of `length` words (12 by default) from `random`'s bytes; 3 words carry 32 bits of entropy. */
export function generateMnemonic(length: number = 12, random: RandomBytes = osRandom): string {
  if (!(MNEMONIC_LENGTHS as readonly number[]).includes(length)) {
    throw new InputError(
      `invalid mnemonic length ${length}: must be one of ${MNEMONIC_LENGTHS.join(", ")}`,
      "mnemonicLength",
    );
  }
  return entropyToMnemonic(random.bytes((length / 3) * 4), wordlist);
}

/** True when `mnemonic` is a well-formed English BIP-39 phrase with a correct checksum. */
export function isValidMnemonic(mnemonic: string): boolean {
  return scureValidate(mnemonic.normalize("NFKD"), wordlist);
}

/** Number of words, after collapsing whitespace. */
export function mnemonicWordCount(mnemonic: string): number {
  return mnemonic.trim().split(/\s+/).filter(Boolean).length;
}

/** Throws an InputError (at `field`) unless `mnemonic` is valid; never echoes the phrase. */
export function assertValidMnemonic(mnemonic: string, field = "mnemonic"): void {
  if (!isValidMnemonic(mnemonic)) throw new InputError("invalid mnemonic", field);
}

/** BIP-39 seed: PBKDF2-HMAC-SHA512(NFKD(mnemonic), "mnemonic" + NFKD(passphrase), 2048) -> 64 bytes. */
export function mnemonicToSeed(mnemonic: string, passphrase = ""): Uint8Array {
  const password = Buffer.from(mnemonic.normalize("NFKD"), "utf8");
  const salt = Buffer.from("mnemonic" + passphrase.normalize("NFKD"), "utf8");
  const out = pbkdf2Sync(password, salt, 2048, 64, "sha512");
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
