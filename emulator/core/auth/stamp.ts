/**
 * The `X-Stamp` header: base64url(JSON {publicKey, scheme, signature}) signing the exact
 * request body bytes. Verification dispatches on the scheme; the caller then resolves the
 * public key to a credential.
 */
import { DOCUMENTED_ERRORS } from "../error-catalogue.js";
import { verify as nodeVerify } from "node:crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { keccak_256 } from "@noble/hashes/sha3.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { documentedError } from "../errors.js";
import { publicKeyObject } from "./public-keys.js";

export const STAMP_SCHEMES = [
  "SIGNATURE_SCHEME_TK_API_P256",
  "SIGNATURE_SCHEME_TK_API_SECP256K1",
  "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191",
  "SIGNATURE_SCHEME_TK_API_ED25519",
] as const;
export type StampScheme = (typeof STAMP_SCHEMES)[number];

export type ApiKeyStamp = { publicKey: string; scheme: StampScheme; signature: string };

/** Credential types whose keys may sign an X-Stamp with each scheme. */
export const SCHEME_CURVE: Record<StampScheme, "API_KEY_CURVE_P256" | "API_KEY_CURVE_SECP256K1" | "API_KEY_CURVE_ED25519"> = {
  SIGNATURE_SCHEME_TK_API_P256: "API_KEY_CURVE_P256",
  SIGNATURE_SCHEME_TK_API_SECP256K1: "API_KEY_CURVE_SECP256K1",
  SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191: "API_KEY_CURVE_SECP256K1",
  SIGNATURE_SCHEME_TK_API_ED25519: "API_KEY_CURVE_ED25519",
};

export const MALFORMED_STAMP = DOCUMENTED_ERRORS.MALFORMED_ACTIVITY_STAMP.message;
export const BAD_SIGNATURE = DOCUMENTED_ERRORS.API_KEY_SIGNATURE_INVALID.message;

export function parseApiKeyStamp(header: string): ApiKeyStamp {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(header.trim(), "base64url").toString("utf8"));
  } catch {
    throw documentedError("MALFORMED_ACTIVITY_STAMP");
  }
  const s = parsed as Partial<ApiKeyStamp> | null;
  if (
    !s ||
    typeof s !== "object" ||
    typeof s.publicKey !== "string" ||
    typeof s.signature !== "string" ||
    typeof s.scheme !== "string" ||
    !STAMP_SCHEMES.includes(s.scheme as StampScheme)
  ) {
    throw documentedError("MALFORMED_ACTIVITY_STAMP");
  }
  return { publicKey: s.publicKey.toLowerCase(), scheme: s.scheme as StampScheme, signature: s.signature };
}

/** Schemes OpenSSL checks (ECDSA over SHA-256, the stamps SDKs send), with their keys' curve. */
const OPENSSL_CURVES: Partial<Record<StampScheme, "p256" | "secp256k1">> = {
  SIGNATURE_SCHEME_TK_API_P256: "p256",
  SIGNATURE_SCHEME_TK_API_SECP256K1: "secp256k1",
};

/** The signature's bytes; undefined when it is not even-length hex. */
function signatureBytes(stamp: ApiKeyStamp): Buffer | undefined {
  return /^[0-9a-fA-F]+$/.test(stamp.signature) && stamp.signature.length % 2 === 0 ? Buffer.from(stamp.signature, "hex") : undefined;
}

/**
 * `verifyApiKeyStamp` off the event loop where OpenSSL does the work: node:crypto's callback
 * form runs the check on the libuv thread pool, so that while many requests are in flight the
 * main thread serves the others meanwhile. Other schemes are checked at once.
 */
export function verifyApiKeyStampOffThread(stamp: ApiKeyStamp, body: Buffer): Promise<boolean> {
  const curve = OPENSSL_CURVES[stamp.scheme];
  if (!curve) return Promise.resolve(verifyApiKeyStamp(stamp, body));
  const sig = signatureBytes(stamp);
  const key = sig && publicKeyObject(curve, stamp.publicKey);
  if (!sig || !key) return Promise.resolve(false);
  return new Promise((resolve) => {
    try {
      nodeVerify("sha256", body, key, sig, (err, ok) => resolve(!err && ok));
    } catch {
      resolve(false);
    }
  });
}

/** True when the stamp's signature verifies over `body` for its public key and scheme. */
export function verifyApiKeyStamp(stamp: ApiKeyStamp, body: Buffer): boolean {
  const sig = signatureBytes(stamp);
  if (!sig) return false;
  try {
    const curve = OPENSSL_CURVES[stamp.scheme];
    if (curve) {
      const key = publicKeyObject(curve, stamp.publicKey);
      // OpenSSL accepts high-S signatures, which Node and noble stampers both produce.
      return !!key && nodeVerify("sha256", body, key, sig);
    }
    switch (stamp.scheme) {
      case "SIGNATURE_SCHEME_TK_API_SECP256K1_EIP191": {
        // personal_sign: keccak256("\x19Ethereum Signed Message:\n" + byteLength + body).
        const prefix = Buffer.from(`\x19Ethereum Signed Message:\n${body.length}`, "utf8");
        const digest = keccak_256(Buffer.concat([prefix, body]));
        return secp256k1.verify(sig, digest, Buffer.from(stamp.publicKey, "hex"), { prehash: false, format: "der", lowS: false });
      }
      case "SIGNATURE_SCHEME_TK_API_ED25519": {
        const key = publicKeyObject("ed25519", stamp.publicKey);
        if (!key || sig.length !== 64) return false;
        // The JS wallet stamper signs the raw body; the Go SDK signs sha256(body). Accept both.
        return nodeVerify(null, body, key, sig) || nodeVerify(null, Buffer.from(sha256(body)), key, sig);
      }
      default:
        return false;
    }
  } catch {
    return false;
  }
}
