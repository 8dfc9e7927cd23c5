/**
 * The enclave-signed envelope shared by export, import and OTP-target bundles:
 *   data                = hex( UTF-8 JSON )
 *   dataSignature       = DER hex ECDSA-P256-SHA256 over the hex-decoded `data` bytes
 *   enclaveQuorumPublic = the signing key, uncompressed lowercase hex (the SDK compares it as a string)
 */
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { InputError } from "../core/input-error.js";
import { signDerHex, type P256KeyPair } from "./p256.js";

export type SignedEnvelopeFields = { data: string; dataSignature: string; enclaveQuorumPublic: string };

export function signEnvelopeData(dataObject: Record<string, unknown>, signerKey: P256KeyPair): SignedEnvelopeFields {
  const dataBytes = utf8ToBytes(JSON.stringify(dataObject));
  return {
    data: bytesToHex(dataBytes),
    dataSignature: signDerHex(dataBytes, signerKey.privateKey),
    enclaveQuorumPublic: bytesToHex(signerKey.publicKey),
  };
}

/**
 * Parses an envelope JSON string, checks `enclaveQuorumPublic` against the expected key (exact
 * string, like the SDK) and the signature, and returns the decoded `data` JSON object.
 */
export function openSignedEnvelope(envelopeJson: string, expectedSignerPublicHex: string): Record<string, unknown> {
  let env: Partial<SignedEnvelopeFields>;
  try {
    env = JSON.parse(envelopeJson);
  } catch {
    throw new InputError("bundle is not valid JSON");
  }
  if (typeof env.data !== "string" || typeof env.dataSignature !== "string" || typeof env.enclaveQuorumPublic !== "string")
    throw new InputError("bundle is missing data, dataSignature or enclaveQuorumPublic");
  if (env.enclaveQuorumPublic !== expectedSignerPublicHex) throw new InputError("bundle signer key does not match");
  let ok: boolean;
  let dataBytes: Uint8Array;
  try {
    dataBytes = hexToBytes(env.data);
    ok = p256.verify(hexToBytes(env.dataSignature), sha256(dataBytes), hexToBytes(env.enclaveQuorumPublic), {
      prehash: false,
      lowS: false,
      format: "der",
    });
  } catch {
    ok = false;
  }
  if (!ok) throw new InputError("bundle signature is invalid");
  return JSON.parse(new TextDecoder().decode(dataBytes!)) as Record<string, unknown>;
}
