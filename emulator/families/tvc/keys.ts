/**
 * The public keys TVC records hold (an app's quorum key, an operator's key). QuorumOS keys are
 * P-256 key pairs whose public half is two uncompressed points, encryption ‖ signing (130
 * bytes); a single SEC1 point (33 or 65 bytes) is accepted too. Keys are kept as lowercase hex.
 */
import { p256Point } from "../../curves/p256.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { InputError } from "../../core/input-error.js";

const HEX = /^(?:0x)?([0-9a-fA-F]{2})+$/;
const POINT = 65;

const isPoint = (bytes: Uint8Array): boolean => p256Point(bytes, true) !== null;

/**
 * Checks a TVC public key and returns it as lowercase hex (no 0x). Throws an InputError naming
 * `field` for anything that is not hex, not 33/65/130 bytes, or not on the curve.
 */
export function parseTvcPublicKey(key: string, field: string): string {
  if (!HEX.test(key)) throw new InputError(`${field} must be a hex-encoded P-256 public key`, field);
  const bytes = hexToBytes(key.replace(/^0x/, ""));
  const points = bytes.length === 2 * POINT ? [bytes.subarray(0, POINT), bytes.subarray(POINT)] : bytes.length === 33 || bytes.length === POINT ? [bytes] : undefined;
  if (!points) throw new InputError(`${field} must be a P-256 public key of 33, 65 or 130 (encryption ‖ signing) bytes, got ${bytes.length}`, field);
  if (!points.every(isPoint)) throw new InputError(`${field} is not a valid P-256 public key (not a point on the curve)`, field);
  return bytesToHex(bytes);
}

/** A SHA-256 digest (the pivot binary's), given as 64 hex digits with an optional `sha256:` prefix; returns the hex. */
export function parseSha256Digest(digest: string, field: string): string {
  const m = /^(?:sha256:)?([0-9a-fA-F]{64})$/.exec(digest);
  if (!m) throw new InputError(`${field} must be a SHA-256 digest: 64 hex digits, optionally prefixed by "sha256:"`, field);
  return m[1]!.toLowerCase();
}

/** A signature as hex (an operator's approval); returns the lowercase hex. */
export function parseHexSignature(signature: string, field: string): string {
  if (!HEX.test(signature)) throw new InputError(`${field} must be a non-empty hex-encoded signature`, field);
  return signature.replace(/^0x/, "").toLowerCase();
}
