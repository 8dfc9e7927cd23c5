/**
 * BIP-32 path strings: `m/44'/60'/0'/0/0`. Hardened segments end in `'`, `h` or `H`.
 * Indices are plain decimal below 2^31; the result applies the hardened offset.
 */
import { InputError, quote } from "../../core/input-error.js";

export const HARDENED_OFFSET = 0x80000000;
/** BIP-32 serialises depth in one byte. */
export const MAX_PATH_DEPTH = 255;

const SEGMENT = /^(\d{1,10})(['hH]?)$/;

/** Child indices of `path` (hardened ones include 0x80000000). `m` alone is the master key (empty list). */
export function parsePath(path: string, field = "path"): number[] {
  if (typeof path !== "string" || path.length === 0) throw new InputError("invalid path: empty", field);
  const parts = path.split("/");
  if (parts[0] !== "m") {
    throw new InputError(`invalid path ${quote(path)}: must start with "m/"`, field);
  }
  const segments = parts.slice(1);
  if (segments.length > MAX_PATH_DEPTH) {
    throw new InputError(`invalid path ${quote(path)}: deeper than ${MAX_PATH_DEPTH} levels`, field);
  }
  return segments.map((seg, i) => {
    const m = SEGMENT.exec(seg);
    const where = `segment ${i + 1} (${quote(seg)})`;
    if (!m) {
      throw new InputError(
        `invalid path ${quote(path)}: ${where} is not a decimal index with an optional ' or h hardened marker`,
        field,
      );
    }
    const index = Number(m[1]);
    if (index >= HARDENED_OFFSET) {
      throw new InputError(`invalid path ${quote(path)}: ${where} is out of range (index must be below 2^31)`, field);
    }
    return m[2] ? index + HARDENED_OFFSET : index;
  });
}

export function isHardened(index: number): boolean {
  return index >= HARDENED_OFFSET;
}

/** Canonical string for child indices, using `'` for hardened: [44+H, 0] -> "m/44'/0". */
export function formatPath(indices: readonly number[]): string {
  return ["m", ...indices.map((i) => (isHardened(i) ? `${i - HARDENED_OFFSET}'` : String(i)))].join("/");
}

/** Canonical form of a path string ("m/44h/060H/0" -> "m/44'/60'/0"); throws like parsePath. */
export function normalizePath(path: string, field = "path"): string {
  return formatPath(parsePath(path, field));
}
