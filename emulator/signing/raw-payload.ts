/**
 * sign_raw_payload(s): payload + encoding + hash function → `{r, s, v}` as the service
 * returns them (64 lowercase hex chars each for r and s, no 0x; v "00"/"01").
 *
 * Decisions where the public reference is silent (UNCONFIRMED against the live service):
 * - HASH_FUNCTION_NO_OP with an ECDSA or Schnorr key requires exactly 32 bytes: the bytes
 *   are the digest itself, and signing a shorter or longer value would silently give a
 *   signature over a different number than the caller meant. Other lengths → an InputError at `payload`.
 * - HASH_FUNCTION_NOT_APPLICABLE is accepted only for ed25519 (the docs name it for EdDSA);
 *   with secp256k1/P-256 it is an InputError at `hashFunction`.
 * - ed25519 accepts only HASH_FUNCTION_NOT_APPLICABLE and only the HEXADECIMAL / TEXT_UTF8
 *   encodings (EIP-712 and EIP-7702 digests are Ethereum-only).
 * - EIP712 and EIP7702_AUTHORIZATION require HASH_FUNCTION_NO_OP (the service hashes them).
 * - ECDSA is deterministic (RFC 6979) and low-S normalised on both secp256k1 (what viem and
 *   ethers expect) and P-256; v is the recovery id of the normalised signature.
 * - BIP-340 / BIP-341 signatures use all-zero auxiliary randomness (deterministic); v = "00".
 */
import { ed25519 } from "@noble/curves/ed25519.js";
import { p256 } from "@noble/curves/nist.js";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { signRecoverableSecp256k1 } from "../curves/secp256k1.js";
import { signRecoverableSecp256k1OffThread, type RecoverableSignature } from "../curves/secp256k1-pool.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { documentedInputError, InputError } from "../core/input-error.js";
import { toHex } from "./hex.js";
import { decodePayload, isDigestEncoding, isPayloadEncoding, type PayloadEncoding } from "./payload-encoding.js";
import { schnorrSign, tweakKeyPathKey } from "./taproot.js";

export type Curve = "CURVE_SECP256K1" | "CURVE_ED25519" | "CURVE_P256";
export type SignatureScheme = "ECDSA" | "BIP340" | "BIP341_TAPROOT";
export type SigningKey = { curve: Curve; privateKey: Uint8Array; scheme?: SignatureScheme };
export type RawSignature = { r: string; s: string; v: string };

export const HASH_FUNCTIONS = [
  "HASH_FUNCTION_NO_OP",
  "HASH_FUNCTION_SHA256",
  "HASH_FUNCTION_KECCAK256",
  "HASH_FUNCTION_NOT_APPLICABLE",
] as const;
export type HashFunction = (typeof HASH_FUNCTIONS)[number];

function isHashFunction(value: string): value is HashFunction {
  return (HASH_FUNCTIONS as readonly string[]).includes(value);
}

export function signRawPayload(key: SigningKey, payload: string, encoding: string, hashFunction: string): RawSignature {
  const { enc, hash } = checkRequest(key, encoding, hashFunction);
  return signOne(key, payload, enc, hash, "payload");
}

/** sign_raw_payloads: same parameters for every payload; errors name `payloads[i]`. */
export function signRawPayloads(
  key: SigningKey,
  payloads: string[],
  encoding: string,
  hashFunction: string,
): RawSignature[] {
  if (!Array.isArray(payloads) || payloads.length === 0) throw new InputError("payloads must not be empty", "payloads");
  const { enc, hash } = checkRequest(key, encoding, hashFunction);
  return payloads.map((p, i) => signOne(key, p, enc, hash, `payloads[${i}]`));
}

/**
 * signRawPayload with an ECDSA secp256k1 signature made on the signing thread
 * (curves/secp256k1-pool.ts), for a busy event loop; other keys sign at once. A bad request
 * throws before anything is signed, as signRawPayload does.
 */
export function signRawPayloadOffThread(key: SigningKey, payload: string, encoding: string, hashFunction: string): Promise<RawSignature> {
  const { enc, hash } = checkRequest(key, encoding, hashFunction);
  return signOneOffThread(key, payload, enc, hash, "payload");
}

/** signRawPayloads, with signRawPayloadOffThread's signatures. */
export function signRawPayloadsOffThread(key: SigningKey, payloads: string[], encoding: string, hashFunction: string): Promise<RawSignature[]> {
  if (!Array.isArray(payloads) || payloads.length === 0) throw new InputError("payloads must not be empty", "payloads");
  const { enc, hash } = checkRequest(key, encoding, hashFunction);
  return Promise.all(payloads.map((p, i) => signOneOffThread(key, p, enc, hash, `payloads[${i}]`)));
}

function checkRequest(key: SigningKey, encoding: string, hashFunction: string): { enc: PayloadEncoding; hash: HashFunction } {
  if (!isPayloadEncoding(encoding)) throw documentedInputError("INVALID_PAYLOAD_ENCODING", String(encoding), "encoding");
  if (!isHashFunction(hashFunction)) throw documentedInputError("INVALID_HASH_FUNCTION", String(hashFunction), "hashFunction");
  if (key.curve === "CURVE_ED25519") {
    if (hashFunction !== "HASH_FUNCTION_NOT_APPLICABLE") {
      throw documentedInputError("INVALID_HASH_FUNCTION", `ed25519 keys require HASH_FUNCTION_NOT_APPLICABLE, got ${hashFunction}`, "hashFunction");
    }
    if (isDigestEncoding(encoding)) {
      throw documentedInputError("INVALID_PAYLOAD_ENCODING", `${encoding} cannot be signed with an ed25519 key`, "encoding");
    }
  } else {
    if (hashFunction === "HASH_FUNCTION_NOT_APPLICABLE") {
      throw documentedInputError("INVALID_HASH_FUNCTION", "HASH_FUNCTION_NOT_APPLICABLE is only valid for ed25519 keys", "hashFunction");
    }
    if (isDigestEncoding(encoding) && hashFunction !== "HASH_FUNCTION_NO_OP") {
      throw documentedInputError("INVALID_HASH_FUNCTION", `${encoding} must be used with HASH_FUNCTION_NO_OP`, "hashFunction");
    }
  }
  return { enc: encoding, hash: hashFunction };
}

function signOne(key: SigningKey, payload: string, encoding: PayloadEncoding, hash: HashFunction, field: string): RawSignature {
  const bytes = decodePayload(payload, encoding, field);
  if (key.curve === "CURVE_ED25519") {
    const sig = ed25519.sign(bytes, key.privateKey);
    return { r: toHex(sig.subarray(0, 32)), s: toHex(sig.subarray(32, 64)), v: "00" };
  }
  const digest = applyHash(bytes, hash, field);
  return signDigest(key, digest);
}

function signOneOffThread(key: SigningKey, payload: string, encoding: PayloadEncoding, hash: HashFunction, field: string): Promise<RawSignature> {
  if (key.curve !== "CURVE_SECP256K1" || (key.scheme ?? "ECDSA") !== "ECDSA") return Promise.resolve(signOne(key, payload, encoding, hash, field));
  const digest = applyHash(decodePayload(payload, encoding, field), hash, field);
  return signRecoverableSecp256k1OffThread(digest, key.privateKey).then(rawSignature);
}

function applyHash(bytes: Uint8Array, hash: HashFunction, field: string): Uint8Array {
  switch (hash) {
    case "HASH_FUNCTION_SHA256":
      return sha256(bytes);
    case "HASH_FUNCTION_KECCAK256":
      return keccak_256(bytes);
    case "HASH_FUNCTION_NO_OP":
      if (bytes.length !== 32) {
        throw new InputError(
          `invalid ${field}: HASH_FUNCTION_NO_OP requires a 32-byte digest, got ${bytes.length} bytes`,
          field,
        );
      }
      return bytes;
    case "HASH_FUNCTION_NOT_APPLICABLE":
      throw new Error("unreachable: NOT_APPLICABLE is rejected for non-ed25519 keys");
  }
}

/** Signs a 32-byte digest with a secp256k1 / P-256 key according to `key.scheme` (default ECDSA). */
export function signDigest(key: SigningKey, digest: Uint8Array): RawSignature {
  const scheme = key.scheme ?? "ECDSA";
  if (scheme !== "ECDSA") {
    if (key.curve !== "CURVE_SECP256K1") throw new Error(`${scheme} signatures need a secp256k1 key`);
    const secret = scheme === "BIP341_TAPROOT" ? tweakKeyPathKey(key.privateKey).secretKey : key.privateKey;
    const sig = schnorrSign(digest, secret);
    return { r: toHex(sig.subarray(0, 32)), s: toHex(sig.subarray(32, 64)), v: "00" };
  }
  const curve = key.curve === "CURVE_P256" ? p256 : secp256k1;
  if (key.curve !== "CURVE_P256" && key.curve !== "CURVE_SECP256K1") throw new Error(`ECDSA needs a Weierstrass curve, got ${key.curve}`);
  return rawSignature(ecdsaRecoverable(curve, digest, key.privateKey));
}

/** r, s and v as the service answers them. */
function rawSignature(sig: RecoverableSignature): RawSignature {
  return { r: toHex(sig.r), s: toHex(sig.s), v: sig.recovery.toString(16).padStart(2, "0") };
}

/** RFC 6979 deterministic, low-S ECDSA over a precomputed digest, with its recovery id. */
export function ecdsaRecoverable(
  curve: typeof secp256k1 | typeof p256,
  digest: Uint8Array,
  privateKey: Uint8Array,
): { r: Uint8Array; s: Uint8Array; recovery: number } {
  if (curve === secp256k1) return signRecoverableSecp256k1(digest, privateKey);
  const out = curve.sign(digest, privateKey, { prehash: false, lowS: true, format: "recovered" });
  return { recovery: out[0]!, r: out.subarray(1, 33), s: out.subarray(33, 65) };
}
