/**
 * `exportBundle` (export_wallet / export_private_key / export_wallet_account): a JSON string
 *   {"version":"v1.0.0","data":hex(JSON{encappedPublic,ciphertext,organizationId}),"dataSignature","enclaveQuorumPublic"}
 * opened client-side by @turnkey/crypto `decryptExportBundle` (with the signer key as override).
 * Plaintext: the UTF-8 mnemonic (wallets) or the raw 32-byte private key (keys, accounts).
 */
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";
import { hpkeOpen, hpkeSeal, type HpkeSealOptions } from "./hpke.js";
import type { P256KeyPair } from "./p256.js";
import { openSignedEnvelope, signEnvelopeData } from "./signed-envelope.js";

export const EXPORT_BUNDLE_VERSION = "v1.0.0";

export type MakeExportBundleParams = {
  /** Mnemonic string (encoded as UTF-8) or raw key bytes. */
  plaintext: Uint8Array | string;
  /** The client's target key, compressed or uncompressed hex. */
  targetPublicKeyHex: string;
  organizationId: string;
  signerKey: P256KeyPair;
  ephemeralPrivateKey?: HpkeSealOptions["ephemeralPrivateKey"];
  random?: HpkeSealOptions["random"];
};

export function makeExportBundle(params: MakeExportBundleParams): string {
  const pt = typeof params.plaintext === "string" ? utf8ToBytes(params.plaintext) : params.plaintext;
  const { enc, ciphertext } = hpkeSeal(pt, params.targetPublicKeyHex, { ephemeralPrivateKey: params.ephemeralPrivateKey, random: params.random });
  const signed = signEnvelopeData(
    { encappedPublic: bytesToHex(enc), ciphertext: bytesToHex(ciphertext), organizationId: params.organizationId },
    params.signerKey,
  );
  return JSON.stringify({ version: EXPORT_BUNDLE_VERSION, ...signed });
}

/** The inverse (verifies signer, signature and organization like the SDK); returns the plaintext bytes. */
export function openExportBundle(
  exportBundle: string,
  params: { organizationId: string; recipientPrivateKey: Uint8Array; signerPublicHex: string },
): Uint8Array {
  const data = openSignedEnvelope(exportBundle, params.signerPublicHex);
  if (data.organizationId !== params.organizationId) throw new InputError("organization id does not match");
  if (typeof data.encappedPublic !== "string" || typeof data.ciphertext !== "string")
    throw new InputError('missing "encappedPublic" in bundle signed data');
  return hpkeOpen(hexToBytes(data.encappedPublic), hexToBytes(data.ciphertext), params.recipientPrivateKey);
}
