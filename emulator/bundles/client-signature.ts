/**
 * `v1ClientSignature` {publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256", message, signature}:
 * raw r‖s hex ECDSA-P256 over SHA-256(UTF-8 message), made by the key bound in the verification
 * token. Used by otp_login / signup with a verification token.
 */
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";
import { decodeHex, parseP256PublicKey, verifyRaw } from "./p256.js";

export const CLIENT_SIGNATURE_SCHEME_API_P256 = "CLIENT_SIGNATURE_SCHEME_API_P256";

export type ClientSignature = { publicKey: string; scheme: string; message: string; signature: string };

/** Checks scheme, key and signature (high-S accepted). Returns false for a bad signature, throws an InputError (at `clientSignature.*`) for malformed input. */
export function verifyClientSignature(sig: ClientSignature): boolean {
  if (sig.scheme !== CLIENT_SIGNATURE_SCHEME_API_P256)
    throw new InputError(`unsupported client signature scheme: ${sig.scheme}`, "clientSignature.scheme");
  const publicKey = parseP256PublicKey(sig.publicKey, "clientSignature.publicKey");
  const signature = decodeHex(sig.signature, "clientSignature.signature");
  if (signature.length !== 64) throw new InputError("client signature must be 64-byte raw r||s hex", "clientSignature.signature");
  return verifyRaw(signature, utf8ToBytes(sig.message), publicKey);
}

/** The message core signs for otp_login / oauth login: exact SDK key order. */
export function loginClientSignatureMessage(params: { sessionPublicKey: string; tokenId: string }): string {
  return JSON.stringify({ login: { publicKey: params.sessionPublicKey }, tokenId: params.tokenId, type: "USAGE_TYPE_LOGIN" });
}

export type SignupUsage = {
  apiKeys?: unknown;
  authenticators?: unknown;
  oauthProviders?: unknown;
  email?: string;
  phoneNumber?: string;
};

/** The message core signs for signup with a verification token: exact SDK key order, absent fields omitted. */
export function signupClientSignatureMessage(params: { usage: SignupUsage; tokenId: string }): string {
  const u = params.usage;
  const signupV2 = {
    ...(u.apiKeys ? { apiKeys: u.apiKeys } : {}),
    ...(u.authenticators ? { authenticators: u.authenticators } : {}),
    ...(u.oauthProviders ? { oauthProviders: u.oauthProviders } : {}),
    ...(u.email ? { email: u.email } : {}),
    ...(u.phoneNumber ? { phoneNumber: u.phoneNumber } : {}),
  };
  return JSON.stringify({ signupV2, tokenId: params.tokenId, type: "USAGE_TYPE_SIGNUP" });
}
