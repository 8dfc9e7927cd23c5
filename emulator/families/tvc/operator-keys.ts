/**
 * An operator's two P-256 keys. QuorumOS operators hold a pair, encryption ‖ signing (130
 * bytes); an operator given as one SEC1 point uses it for both (UNCONFIRMED). create_tvc_operator
 * derives the two from an organization wallet (CURVE_P256 accounts at `<path>/0` and `<path>/1`).
 */
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { p256 } from "@noble/curves/nist.js";
import { InputError } from "../../core/input-error.js";
import type { TvcOperatorRow } from "./repository.js";

const POINT = 65;

const uncompressed = (bytes: Uint8Array): string => bytesToHex(p256.Point.fromBytes(bytes).toBytes(false));

/** The operator's encryption and signing public keys, uncompressed hex. */
export function operatorKeys(o: Pick<TvcOperatorRow, "publicKey">): { encryptPublicKey: string; signPublicKey: string } {
  const bytes = hexToBytes(o.publicKey);
  if (bytes.length === 2 * POINT) return { encryptPublicKey: bytesToHex(bytes.subarray(0, POINT)), signPublicKey: bytesToHex(bytes.subarray(POINT)) };
  const point = uncompressed(bytes);
  return { encryptPublicKey: point, signPublicKey: point };
}

/** The wallet account paths create_tvc_operator derives an operator's keys at (UNCONFIRMED). */
export const operatorAccountPaths = (base: string): { encryptPath: string; signPath: string } => ({ encryptPath: `${base}/0`, signPath: `${base}/1` });

/** One P-256 public key as hex (33 or 65 bytes, on the curve); returns it uncompressed. */
export function parseP256Point(key: string, field: string): string {
  const hex = key.replace(/^0x/, "");
  if (!/^([0-9a-fA-F]{2})+$/.test(hex)) throw new InputError(`${field} must be a hex-encoded P-256 public key`, field);
  const bytes = hexToBytes(hex);
  if (bytes.length !== 33 && bytes.length !== POINT) throw new InputError(`${field} must be a P-256 public key of 33 or 65 bytes, got ${bytes.length}`, field);
  try {
    return uncompressed(bytes);
  } catch {
    throw new InputError(`${field} is not a valid P-256 public key (not a point on the curve)`, field);
  }
}
