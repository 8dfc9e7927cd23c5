/**
 * What a replay makes anew where the recording holds a marker or a signature by a key it does
 * not have, the way the app's SDK made it against the live service:
 *  - the OTP v2 `encryptedOtpBundle`: the replay's code (from its mailbox) and the key the
 *    verification token is to bind, sealed to the replay's `otpEncryptionTargetBundle`;
 *  - a `clientSignature` (otp_login_v2, signup_v2): its message names the replay's token
 *    (`tokenId`) and keys, signed by the replay's pair for the key it names.
 */
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { decodeJwt, hpkeSeal } from "../bundles/index.js";
import type { Exchange } from "./cassette.js";
import type { KeyPair } from "./keys.js";

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === "object" && !Array.isArray(v);

/** The OTP v2 bundle: JSON {encappedPublic, ciphertext} sealing {otp_code, public_key} to the target bundle's `targetPublic`. */
export function sealOtpBundle(code: string, targetBundle: string, publicKey: string): string {
  const envelope = JSON.parse(targetBundle) as { data: string };
  const { targetPublic } = JSON.parse(new TextDecoder().decode(hexToBytes(envelope.data))) as { targetPublic: string };
  const sealed = hpkeSeal(utf8ToBytes(JSON.stringify({ otp_code: code, public_key: publicKey })), targetPublic);
  return JSON.stringify({ encappedPublic: bytesToHex(sealed.enc), ciphertext: bytesToHex(sealed.ciphertext) });
}

/** A client signature over `message` with its `tokenId` replaced by the given token's id, signed by `key` (raw r‖s hex over SHA-256). */
export function clientSignatureFor(sig: Record<string, unknown>, key: KeyPair, verificationToken: string): Record<string, unknown> {
  const message = JSON.parse(String(sig.message)) as Record<string, unknown>;
  if ("tokenId" in message) message.tokenId = String(decodeJwt(verificationToken).payload.id ?? "");
  const text = JSON.stringify(message);
  const signature = bytesToHex(p256.sign(sha256(utf8ToBytes(text)), hexToBytes(key.privateKey), { prehash: false }));
  return { ...sig, message: text, signature };
}

/** Every `otpId` with the `otpEncryptionTargetBundle` an answer gives beside it. */
export function otpTargetsIn(v: unknown, out = new Map<string, string>()): Map<string, string> {
  if (Array.isArray(v)) for (const x of v) otpTargetsIn(x, out);
  else if (isObj(v)) {
    if (typeof v.otpId === "string" && typeof v.otpEncryptionTargetBundle === "string") out.set(v.otpId, v.otpEncryptionTargetBundle);
    for (const x of Object.values(v)) otpTargetsIn(x, out);
  }
  return out;
}

/** A string field of a request body, at its top or in its `parameters`. */
export function fieldOf(body: unknown, name: string): string | undefined {
  const b = isObj(body) ? body : {};
  const v = b[name] ?? (isObj(b.parameters) ? b.parameters[name] : undefined);
  return typeof v === "string" ? v : undefined;
}

/**
 * The recorded key an OTP verification bound its token to: the verification's answer gave a
 * token (a marker), and the first later request that sends it names the key it logs in or
 * signs up with (`publicKey`, or its client signature's).
 */
export function boundKeyOf(exchanges: Exchange[], at: number): string | undefined {
  const token = JSON.stringify(exchanges[at]?.response.body ?? null).match(/<redacted [A-Za-z]+ len=\d+ #\d+>/)?.[0];
  if (!token) return undefined;
  for (const x of exchanges.slice(at + 1)) {
    const body = x.request.body;
    if (!JSON.stringify(body ?? null).includes(token) && x.request.stamp?.attestation !== token) continue;
    const sig = isObj(body) ? (body.clientSignature ?? (isObj(body.parameters) ? body.parameters.clientSignature : undefined)) : undefined;
    return (isObj(sig) && typeof sig.publicKey === "string" ? sig.publicKey : undefined) ?? fieldOf(body, "publicKey") ?? x.request.stamp?.publicKey;
  }
  return undefined;
}
