/**
 * OTP v2 artefacts.
 *  - `otpEncryptionTargetBundle`: JSON {enclaveQuorumPublic, dataSignature, data = hex(JSON{targetPublic})}
 *    signed by the TLS-fetcher key; @turnkey/crypto `encryptOtpCodeToBundle` checks it.
 *  - `encryptedOtpBundle`: JSON {encappedPublic, ciphertext}, plaintext JSON {otp_code, public_key}.
 */
import { bytesToHex } from "@noble/hashes/utils.js";
import { InputError, inputAt } from "../core/input-error.js";
import { hpkeOpen } from "./hpke.js";
import { decodeHex, generateP256KeyPair, type P256KeyPair } from "./p256.js";
import { signEnvelopeData } from "./signed-envelope.js";
import type { RandomBytes } from "../core/random.js";

export type MadeOtpTargetBundle = {
  bundle: string;
  /** Keep (server side, with the otpId) to open the `encryptedOtpBundle` in verify_otp. */
  targetPrivateKey: Uint8Array;
  targetPublicHex: string;
};

/** `random`: where a target key is drawn from when none is given (the instance's `rt.random`). */
export function makeOtpEncryptionTargetBundle(params: { tlsFetcherKey: P256KeyPair; targetKey?: P256KeyPair; random?: RandomBytes }): MadeOtpTargetBundle {
  const target = params.targetKey ?? generateP256KeyPair(params.random);
  const targetPublicHex = bytesToHex(target.publicKey);
  const { data, dataSignature, enclaveQuorumPublic } = signEnvelopeData({ targetPublic: targetPublicHex }, params.tlsFetcherKey);
  return {
    bundle: JSON.stringify({ enclaveQuorumPublic, dataSignature, data }),
    targetPrivateKey: target.privateKey,
    targetPublicHex,
  };
}

const FIELD = "encryptedOtpBundle";

export type OpenedOtpBundle = { otp_code: string; public_key: string };

export function openEncryptedOtpBundle(encryptedOtpBundleJson: string, targetPrivateKey: Uint8Array): OpenedOtpBundle {
  let parsed: { encappedPublic?: unknown; ciphertext?: unknown };
  try {
    parsed = JSON.parse(encryptedOtpBundleJson);
  } catch {
    throw new InputError("encrypted OTP bundle is not valid JSON", FIELD);
  }
  if (typeof parsed?.encappedPublic !== "string" || typeof parsed.ciphertext !== "string")
    throw new InputError("encrypted OTP bundle must contain encappedPublic and ciphertext", FIELD);
  const enc = decodeHex(parsed.encappedPublic, FIELD);
  const ciphertext = decodeHex(parsed.ciphertext, FIELD);
  const pt = inputAt(FIELD, () => hpkeOpen(enc, ciphertext, targetPrivateKey));
  let body: { otp_code?: unknown; public_key?: unknown };
  try {
    body = JSON.parse(new TextDecoder().decode(pt));
  } catch {
    throw new InputError("encrypted OTP bundle plaintext is not JSON", FIELD);
  }
  if (typeof body?.otp_code !== "string" || typeof body.public_key !== "string")
    throw new InputError("encrypted OTP bundle must contain otp_code and public_key", FIELD);
  return { otp_code: body.otp_code, public_key: body.public_key };
}
