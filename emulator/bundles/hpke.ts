/**
 * Turnkey's HPKE profile: RFC 9180 mode_base, DHKEM(P-256, HKDF-SHA256), HKDF-SHA256,
 * AES-256-GCM, info "turnkey_hpke", single shot (nonce = base_nonce), and the non-standard
 * AAD = enc(65, uncompressed) ‖ pkR(the recipient key bytes used in kem_context).
 *
 * Hand-written over noble ECDH/HKDF and node:crypto AES-GCM (not @hpke/core) because:
 * the whole emulator wants a synchronous, pure API; the AAD depends on `enc`, which hpke-js
 * single-shot `seal` cannot reference; and the import rule needs the recipient key bytes used
 * in kem_context/AAD to be exactly those the client saw, compressed or not. The key schedule
 * is tested against the RFC 9180 A.3 vector and the ciphertexts against @hpke/core and @turnkey/crypto.
 */
import { createCipheriv, createDecipheriv } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { extract, expand } from "@noble/hashes/hkdf.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";
import { osRandom, type RandomBytes } from "../core/random.js";
import { parseP256PublicKey } from "./p256.js";

export const TURNKEY_HPKE_INFO = "turnkey_hpke";

const KEM_ID = 0x0010; // DHKEM(P-256, HKDF-SHA256)
const KDF_ID = 0x0001; // HKDF-SHA256
const AEAD_AES_128_GCM = { id: 0x0001, keyLength: 16, cipher: "aes-128-gcm" } as const;
const AEAD_AES_256_GCM = { id: 0x0002, keyLength: 32, cipher: "aes-256-gcm" } as const;
type Aead = typeof AEAD_AES_128_GCM | typeof AEAD_AES_256_GCM;
const NONCE_LENGTH = 12;
const TAG_LENGTH = 16;

const i2osp2 = (n: number): Uint8Array => new Uint8Array([(n >> 8) & 0xff, n & 0xff]);
const HPKE_V1 = utf8ToBytes("HPKE-v1");
const KEM_SUITE_ID = concatBytes(utf8ToBytes("KEM"), i2osp2(KEM_ID));
const hpkeSuiteId = (aead: Aead) => concatBytes(utf8ToBytes("HPKE"), i2osp2(KEM_ID), i2osp2(KDF_ID), i2osp2(aead.id));

function labeledExtract(suiteId: Uint8Array, salt: Uint8Array, label: string, ikm: Uint8Array): Uint8Array {
  return extract(sha256, concatBytes(HPKE_V1, suiteId, utf8ToBytes(label), ikm), salt);
}

function labeledExpand(suiteId: Uint8Array, prk: Uint8Array, label: string, info: Uint8Array, length: number): Uint8Array {
  return expand(sha256, prk, concatBytes(i2osp2(length), HPKE_V1, suiteId, utf8ToBytes(label), info), length);
}

/** DHKEM ExtractAndExpand: the KEM shared secret from the raw ECDH x-coordinate and enc‖pkR. */
function kemSharedSecret(dh: Uint8Array, kemContext: Uint8Array): Uint8Array {
  const eaePrk = labeledExtract(KEM_SUITE_ID, new Uint8Array(0), "eae_prk", dh);
  return labeledExpand(KEM_SUITE_ID, eaePrk, "shared_secret", kemContext, 32);
}

/** mode_base key schedule (empty psk / psk_id). Exposed to the tests for the RFC 9180 vector. */
export function keyScheduleBase(sharedSecret: Uint8Array, info: Uint8Array, aead: Aead = AEAD_AES_256_GCM) {
  const suiteId = hpkeSuiteId(aead);
  const empty = new Uint8Array(0);
  const pskIdHash = labeledExtract(suiteId, empty, "psk_id_hash", empty);
  const infoHash = labeledExtract(suiteId, empty, "info_hash", info);
  const context = concatBytes(new Uint8Array([0x00]), pskIdHash, infoHash);
  const secret = labeledExtract(suiteId, sharedSecret, "secret", empty);
  return {
    key: labeledExpand(suiteId, secret, "key", context, aead.keyLength),
    baseNonce: labeledExpand(suiteId, secret, "base_nonce", context, NONCE_LENGTH),
  };
}

const ecdhX = (privateKey: Uint8Array, publicKey: Uint8Array): Uint8Array =>
  p256.getSharedSecret(privateKey, publicKey, true).slice(1);

export type HpkeSealOptions = {
  /** Fixed ephemeral secret, for deterministic fixtures and tests only. */
  ephemeralPrivateKey?: Uint8Array;
  /** Where the ephemeral secret is drawn from when none is given (an instance's `rt.random`; the system's generator by default). */
  random?: RandomBytes;
  info?: Uint8Array;
  /** Test hook for RFC vectors; Turnkey always uses AES-256-GCM with AAD = enc‖pkR. */
  aead?: Aead;
  aad?: Uint8Array;
};

export type HpkeSealed = { enc: Uint8Array; ciphertext: Uint8Array };

/**
 * Seals `plaintext` to `recipientPublicKey` (compressed or uncompressed, bytes or hex). The key is
 * always uncompressed before it enters kem_context and AAD, because Turnkey's `hpkeDecrypt`
 * re-derives the uncompressed key from the private key on the client side.
 */
export function hpkeSeal(plaintext: Uint8Array, recipientPublicKey: Uint8Array | string, options: HpkeSealOptions = {}): HpkeSealed {
  const pkR = parseP256PublicKey(recipientPublicKey, "targetPublicKey");
  const skE = options.ephemeralPrivateKey ?? p256.utils.randomSecretKey((options.random ?? osRandom).bytes(p256.lengths.seed!));
  const enc = p256.getPublicKey(skE, false);
  const aead = options.aead ?? AEAD_AES_256_GCM;
  const sharedSecret = kemSharedSecret(ecdhX(skE, pkR), concatBytes(enc, pkR));
  const { key, baseNonce } = keyScheduleBase(sharedSecret, options.info ?? utf8ToBytes(TURNKEY_HPKE_INFO), aead);
  const cipher = createCipheriv(aead.cipher, key, baseNonce, { authTagLength: TAG_LENGTH });
  cipher.setAAD(options.aad ?? concatBytes(enc, pkR));
  const ciphertext = concatBytes(cipher.update(plaintext), cipher.final(), cipher.getAuthTag());
  return { enc, ciphertext };
}

export type HpkeOpenOptions = {
  /**
   * The recipient public key bytes the sender used in kem_context and AAD. Defaults to the
   * uncompressed key derived from the private key (what Turnkey's `hpkeDecrypt` assumes).
   * Import bundles: pass `targetPublic` exactly as it appeared in the bundle.
   */
  recipientPublicKeyAsGiven?: Uint8Array;
  info?: Uint8Array;
  aead?: Aead;
  aad?: Uint8Array;
};

/** Opens an HPKE ciphertext (ct‖tag). `enc` may be compressed or uncompressed. Throws an InputError on failure (at `encappedPublic`, `ciphertext`, or the whole bundle when authentication fails). */
export function hpkeOpen(
  enc: Uint8Array,
  ciphertext: Uint8Array,
  recipientPrivateKey: Uint8Array,
  options: HpkeOpenOptions = {},
): Uint8Array {
  const encUncompressed = parseP256PublicKey(enc, "encappedPublic");
  const pkR = options.recipientPublicKeyAsGiven ?? p256.getPublicKey(recipientPrivateKey, false);
  if (ciphertext.length < TAG_LENGTH) throw new InputError("ciphertext too short", "ciphertext");
  const aead = options.aead ?? AEAD_AES_256_GCM;
  const sharedSecret = kemSharedSecret(ecdhX(recipientPrivateKey, encUncompressed), concatBytes(encUncompressed, pkR));
  const { key, baseNonce } = keyScheduleBase(sharedSecret, options.info ?? utf8ToBytes(TURNKEY_HPKE_INFO), aead);
  const decipher = createDecipheriv(aead.cipher, key, baseNonce, { authTagLength: TAG_LENGTH });
  decipher.setAAD(options.aad ?? concatBytes(encUncompressed, pkR));
  decipher.setAuthTag(ciphertext.subarray(ciphertext.length - TAG_LENGTH));
  try {
    return concatBytes(decipher.update(ciphertext.subarray(0, ciphertext.length - TAG_LENGTH)), decipher.final());
  } catch {
    throw new InputError("failed to decrypt bundle: HPKE authentication failed");
  }
}

export const HPKE_AEAD = { AES_128_GCM: AEAD_AES_128_GCM, AES_256_GCM: AEAD_AES_256_GCM } as const;
