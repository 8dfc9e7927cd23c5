/**
 * App proofs (`activity.appProofs[]`): {scheme: "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256",
 * publicKey: hex(encryptionPub(65) ‖ signingPub(65)), proofPayload: JSON string,
 * signature: raw r‖s hex over SHA-256(proofPayload) by the signing key}. Only the signature can be
 * made to verify (@turnkey/crypto `verifyAppProofSignature`); boot proofs need real Nitro attestation.
 */
import { bytesToHex, utf8ToBytes } from "@noble/hashes/utils.js";
import { generateP256KeyPair, signRaw, type P256KeyPair } from "./p256.js";
import type { RandomBytes } from "../core/random.js";

export const APP_PROOF_SCHEME = "SIGNATURE_SCHEME_EPHEMERAL_KEY_P256";

export type AppProof = { scheme: typeof APP_PROOF_SCHEME; publicKey: string; proofPayload: string; signature: string };

/** The emulator's ephemeral enclave key pair set: an encryption key and a signing key. */
export type EphemeralKeys = { encryption: P256KeyPair; signing: P256KeyPair };

export const generateEphemeralKeys = (random?: RandomBytes): EphemeralKeys => ({ encryption: generateP256KeyPair(random), signing: generateP256KeyPair(random) });

/** 130-byte ephemeral public key hex, as in app proofs and boot proofs. */
export const ephemeralPublicKeyHex = (keys: EphemeralKeys): string =>
  bytesToHex(keys.encryption.publicKey) + bytesToHex(keys.signing.publicKey);

/**
 * Signs `payload` (an object, serialised with JSON.stringify, or an already-serialised string).
 * Typical payload: {type: "APP_PROOF_TYPE_ADDRESS_DERIVATION", timestampMs: "<ms string>",
 * addressDerivationProof: {organizationId, walletId, derivationPath, address}}.
 */
export function makeAppProof(payload: object | string, keys: EphemeralKeys): AppProof {
  const proofPayload = typeof payload === "string" ? payload : JSON.stringify(payload);
  return {
    scheme: APP_PROOF_SCHEME,
    publicKey: ephemeralPublicKeyHex(keys),
    proofPayload,
    signature: bytesToHex(signRaw(utf8ToBytes(proofPayload), keys.signing.privateKey)),
  };
}
