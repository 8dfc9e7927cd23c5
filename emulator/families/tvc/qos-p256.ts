/**
 * QuorumOS's P-256 key pair and encryption (qos_p256), as TVC quorum keys and their shares use them:
 *  - a pair is a 32-byte master seed; its encryption and signing secrets are
 *    HKDF-SHA512(salt = "qos_p256_encrypt" / "qos_p256_sign", ikm = seed, info = "") and its
 *    public key is the two uncompressed points, encryption ‖ signing (130 bytes);
 *  - a message to an encryption key is a borsh `Envelope` {nonce[12], ephemeral sender public
 *    key[65], u32-LE length ‖ AES-256-GCM ciphertext}, the key being the first 32 bytes of
 *    HMAC-SHA512(key = sender ‖ receiver ‖ ECDH x, "qos_encryption_hmac_message") and the AAD
 *    sender ‖ len ‖ receiver ‖ len.
 * That is what QuorumOS encrypts quorum key shares with (genesis, provisioning), and what
 * @turnkey/crypto's `quorumKeyEncrypt` writes. Tested against QuorumOS's mock key pair and
 * against @turnkey/crypto.
 */
import { createCipheriv, createDecipheriv } from "node:crypto";
import { p256 } from "@noble/curves/nist.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { concatBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { osRandom, type RandomBytes } from "../../core/random.js";

const POINT = 65;
const NONCE = 12;
const TAG = 16;
const HMAC_MESSAGE = utf8ToBytes("qos_encryption_hmac_message");

export type QosPair = { encryptSecret: Uint8Array; signSecret: Uint8Array; publicKey: Uint8Array };

/** The pair a QuorumOS master seed stands for. */
export function qosPairFromSeed(seed: Uint8Array): QosPair {
  if (seed.length !== 32) throw new RangeError("a QuorumOS master seed is 32 bytes");
  const derive = (label: string) => hkdf(sha512, seed, utf8ToBytes(label), new Uint8Array(0), 32);
  const encryptSecret = derive("qos_p256_encrypt");
  const signSecret = derive("qos_p256_sign");
  return { encryptSecret, signSecret, publicKey: concatBytes(p256.getPublicKey(encryptSecret, false), p256.getPublicKey(signSecret, false)) };
}

function aesKey(sender: Uint8Array, receiver: Uint8Array, sharedX: Uint8Array): Uint8Array {
  return hmac(sha512, concatBytes(sender, receiver, sharedX), HMAC_MESSAGE).subarray(0, 32);
}

const aad = (sender: Uint8Array, receiver: Uint8Array) => concatBytes(sender, Uint8Array.of(sender.length), receiver, Uint8Array.of(receiver.length));

/** Encrypts `message` to an encryption public key (any SEC1 form), with an ephemeral key and nonce from `random`; returns the borsh envelope. */
export function qosEncrypt(receiverPublicKey: Uint8Array, message: Uint8Array, random: RandomBytes = osRandom): Uint8Array {
  const receiver = p256.Point.fromBytes(receiverPublicKey).toBytes(false);
  const ephemeral = p256.utils.randomSecretKey(random.bytes(p256.lengths.seed!));
  const sender = p256.getPublicKey(ephemeral, false);
  const sharedX = p256.getSharedSecret(ephemeral, receiver, true).subarray(1);
  const nonce = random.bytes(NONCE);
  const cipher = createCipheriv("aes-256-gcm", aesKey(sender, receiver, sharedX), nonce);
  cipher.setAAD(aad(sender, receiver));
  const sealed = concatBytes(cipher.update(message), cipher.final(), cipher.getAuthTag());
  const length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, sealed.length, true);
  return concatBytes(nonce, sender, length, sealed);
}

export type QosEnvelope = { nonce: Uint8Array; sender: Uint8Array; sealed: Uint8Array };

/** Reads a borsh envelope; throws a RangeError saying what is wrong with it. */
export function parseQosEnvelope(bytes: Uint8Array): QosEnvelope {
  if (bytes.length < NONCE + POINT + 4 + TAG) throw new RangeError(`an envelope is at least ${NONCE + POINT + 4 + TAG} bytes, got ${bytes.length}`);
  const sender = bytes.subarray(NONCE, NONCE + POINT);
  const length = new DataView(bytes.buffer, bytes.byteOffset + NONCE + POINT, 4).getUint32(0, true);
  if (NONCE + POINT + 4 + length !== bytes.length) throw new RangeError(`the envelope's ciphertext length (${length}) does not match its size (${bytes.length} bytes)`);
  try {
    if (sender[0] !== 4) throw new Error();
    p256.Point.fromBytes(sender);
  } catch {
    throw new RangeError("the envelope's ephemeral sender key is not an uncompressed P-256 point");
  }
  return { nonce: bytes.subarray(0, NONCE), sender, sealed: bytes.subarray(NONCE + POINT + 4) };
}

/** Opens an envelope with the receiver's encryption secret; throws when it does not authenticate. */
export function qosDecrypt(receiverSecret: Uint8Array, envelope: Uint8Array): Uint8Array {
  const { nonce, sender, sealed } = parseQosEnvelope(envelope);
  const receiver = p256.getPublicKey(receiverSecret, false);
  const sharedX = p256.getSharedSecret(receiverSecret, sender, true).subarray(1);
  const decipher = createDecipheriv("aes-256-gcm", aesKey(sender, receiver, sharedX), nonce);
  decipher.setAAD(aad(sender, receiver));
  decipher.setAuthTag(sealed.subarray(sealed.length - TAG));
  return concatBytes(decipher.update(sealed.subarray(0, sealed.length - TAG)), decipher.final());
}
