/**
 * ES256 JWTs the emulator issues: session JWTs (notarizer key, Turnkey's double-SHA-256 variant)
 * and OTP verification tokens (TLS-fetcher key, standard ES256).
 *
 * SDK parsers read payloads with `JSON.parse(atob(payload))`, and neither the global `atob`
 * nor @turnkey/encoding's accepts the base64url characters '-' and '_'. For ASCII JSON those
 * appear only where '>', '?', '~' or DEL sit at a byte offset ≡ 2 (mod 3), and non-ASCII text
 * would be mangled by atob's Latin-1 decode anyway. So payload JSON is written with those
 * characters and all non-ASCII code units as \uXXXX escapes inside strings: the claims parse to
 * exactly the same values, key order and spacing are unchanged, and no claim is added.
 */
import { base64urlnopad } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { utf8ToBytes } from "@noble/hashes/utils.js";
import { InputError } from "../core/input-error.js";
import { parseP256PublicKey, signRaw, verifyRaw, type P256KeyPair } from "./p256.js";

/** JSON.stringify, with every '>', '?', '~' and code unit ≥ 0x7f escaped as \uXXXX (only strings can hold them). */
export function atobSafeJson(value: unknown): string {
  return JSON.stringify(value).replace(/[>?~\u007f-\uffff]/g, (c) => "\\u" + c.charCodeAt(0).toString(16).padStart(4, "0"));
}

export const base64UrlEncode = (bytes: Uint8Array): string => base64urlnopad.encode(bytes);

/** Lenient base64url decode: accepts padding and standard-alphabet '+' '/'. */
export function base64UrlDecode(s: string): Uint8Array {
  return base64urlnopad.decode(s.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"));
}

/** base64url(JSON) of an object, guaranteed free of '-' and '_' (see file comment). */
export function encodeJwtSegment(value: Record<string, unknown>): string {
  const seg = base64UrlEncode(utf8ToBytes(atobSafeJson(value)));
  if (/[-_]/.test(seg)) throw new Error("internal: JWT segment is not atob-safe"); // unreachable by construction
  return seg;
}

export type SessionJwtClaims = {
  /** NumericDate, seconds. */
  exp: number;
  /** Compressed P-256 hex of the session key; a read-only session has none. */
  public_key?: string;
  session_type: string;
  user_id: string;
  /** The sub-organization. */
  organization_id: string;
  session_profile_id?: string;
  scope?: unknown;
};

export const SESSION_JWT_HEADER = { alg: "ES256", typ: "JWT" } as const;
export const VERIFICATION_TOKEN_HEADER = { typ: "JWT", alg: "ES256" } as const;

function signCompact(header: Record<string, unknown>, payload: Record<string, unknown>, key: P256KeyPair, doubleHash: boolean): string {
  const signingInput = `${encodeJwtSegment(header)}.${encodeJwtSegment(payload)}`;
  const h1 = sha256(utf8ToBytes(signingInput));
  // signRaw hashes once more unless prehashed: double-hash signs sha256(h1), standard signs h1.
  const signature = signRaw(h1, key.privateKey, !doubleHash);
  return `${signingInput}.${base64UrlEncode(signature)}`;
}

/**
 * Session JWT (`session` in stamp_login / otp_login / oauth_login results, and the read-only
 * session of create_read_only_session, which names no key). ES256 where the ECDSA
 * digest is sha256(sha256("h.p")), verifiable with @turnkey/crypto `verifySessionJwtSignature`.
 * Claim order follows the production token: exp, public_key, session_type, user_id, organization_id.
 */
export function signSessionJwt(claims: SessionJwtClaims, notarizerKey: P256KeyPair): string {
  if (!Number.isInteger(claims.exp)) throw new InputError("session exp must be an integer number of seconds");
  const payload: Record<string, unknown> = {
    exp: claims.exp,
    ...(claims.public_key !== undefined ? { public_key: claims.public_key } : {}),
    session_type: claims.session_type,
    user_id: claims.user_id,
    organization_id: claims.organization_id,
  };
  if (claims.session_profile_id !== undefined) payload.session_profile_id = claims.session_profile_id;
  if (claims.scope !== undefined) payload.scope = claims.scope;
  return signCompact(SESSION_JWT_HEADER, payload, notarizerKey, true);
}

export type VerificationTokenClaims = {
  /** Millisecond epoch as a decimal STRING (not a NumericDate). */
  exp: string;
  id: string;
  organization_id: string;
  verification_type: "OTP_TYPE_EMAIL" | "OTP_TYPE_SMS" | string;
  contact: string;
  /** Compressed P-256 hex the client bound in verify_otp. */
  public_key: string;
};

/** OTP verification token: standard ES256 (single SHA-256) signed by the TLS-fetcher key. */
export function signVerificationToken(claims: VerificationTokenClaims, tlsFetcherKey: P256KeyPair): string {
  if (!/^\d+$/.test(claims.exp)) throw new InputError("verification token exp must be a millisecond epoch string");
  const payload = {
    exp: claims.exp,
    id: claims.id,
    organization_id: claims.organization_id,
    verification_type: claims.verification_type,
    contact: claims.contact,
    public_key: claims.public_key,
  };
  return signCompact(VERIFICATION_TOKEN_HEADER, payload, tlsFetcherKey, false);
}

export type DecodedJwt = { header: Record<string, unknown>; payload: Record<string, unknown>; signingInput: string; signature: Uint8Array };

/** Splits and decodes a compact JWT without verifying it. Throws an InputError of kind "unauthenticated" when malformed. */
export function decodeJwt(jwt: string): DecodedJwt {
  const parts = jwt.split(".");
  if (parts.length !== 3) throw new InputError("malformed JWT: need 3 parts", undefined, "unauthenticated");
  try {
    const [h, p, s] = parts as [string, string, string];
    const text = (seg: string) => new TextDecoder("utf-8", { fatal: true }).decode(base64UrlDecode(seg));
    const header = JSON.parse(text(h));
    const payload = JSON.parse(text(p));
    if (typeof header !== "object" || header === null || typeof payload !== "object" || payload === null) throw new Error();
    return { header, payload, signingInput: `${h}.${p}`, signature: base64UrlDecode(s) };
  } catch {
    throw new InputError("malformed JWT", undefined, "unauthenticated");
  }
}

/**
 * Verifies an ES256 compact JWT against a P-256 public key (compressed or uncompressed, bytes or
 * hex) and returns its decoded parts. `doubleHash: true` checks Turnkey's session-JWT variant.
 * Checks only alg and signature; callers check claims (exp units differ per token type).
 */
export function verifyEs256Jwt(jwt: string, publicKey: Uint8Array | string, options: { doubleHash?: boolean } = {}): DecodedJwt {
  const decoded = decodeJwt(jwt);
  if (decoded.header.alg !== "ES256") throw new InputError("unsupported JWT alg", undefined, "unauthenticated");
  const h1 = sha256(utf8ToBytes(decoded.signingInput));
  if (!verifyRaw(decoded.signature, h1, parseP256PublicKey(publicKey), !options.doubleHash))
    throw new InputError("invalid JWT signature", undefined, "unauthenticated");
  return decoded;
}
