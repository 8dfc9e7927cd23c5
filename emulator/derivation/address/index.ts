/**
 * Address encoding for every `ADDRESS_FORMAT_*` value.
 *
 *   addressFor(format, curve, publicKey)  -> address string (InputError if the curve does not fit)
 *   curvesFor(format)                     -> curves the format accepts
 *   defaultPathFor(format, index = 0)     -> the official SDK's default path
 */
import { documentedInputError, InputError, quote } from "../../core/input-error.js";
import { type Curve, isCurve } from "../keys/curve.js";
import { ADDRESS_FORMATS, type AddressFormat, FORMAT_SPECS } from "./formats.js";

export { ADDRESS_FORMATS, type AddressFormat } from "./formats.js";

export function isAddressFormat(x: unknown): x is AddressFormat {
  return typeof x === "string" && (ADDRESS_FORMATS as readonly string[]).includes(x);
}

/** `path`: where the InputError for an unknown format points (absent when the format is the whole input). */
function spec(format: string, path?: string) {
  if (!isAddressFormat(format)) throw documentedInputError("INVALID_ADDRESS_FORMAT", quote(format), path);
  return FORMAT_SPECS[format];
}

/** Curves `format` can be derived on. */
export function curvesFor(format: string): readonly Curve[] {
  return spec(format).curves;
}

/** Default BIP-32 path of account `index` for `format`, as the official SDK's helpers build it. */
export function defaultPathFor(format: string, index = 0): string {
  if (!Number.isInteger(index) || index < 0 || index >= 0x80000000) {
    throw new InputError(`invalid account index ${index}`, "index");
  }
  return spec(format, "addressFormat").defaultPath(index);
}

/**
 * Address of `publicKey` (as deriveKey returns it: 33-byte compressed for secp256k1 / P-256,
 * 65-byte uncompressed also accepted; 32 bytes for ed25519) in `format`.
 */
export function addressFor(format: string, curve: Curve, publicKey: Uint8Array): string {
  const s = spec(format, "addressFormat");
  if (!isCurve(curve)) throw documentedInputError("INVALID_CURVE", quote(String(curve)), "curve");
  if (!s.curves.includes(curve)) {
    throw documentedInputError("INVALID_CURVE", `address format ${format} does not support ${curve}; supported: ${s.curves.join(", ")}`, "curve");
  }
  return s.encode(curve, publicKey);
}
