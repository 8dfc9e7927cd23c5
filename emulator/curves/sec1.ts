/**
 * The SEC1 public-key encodings the service accepts: 33 bytes 02/03 (compressed) or 65 bytes 04
 * (uncompressed). OpenSSL and libsecp256k1 would also read the 65-byte "hybrid" forms (06/07),
 * which @noble/curves and the SDKs refuse: every decoder here checks this first.
 */
export const isSec1PublicKey = (bytes: Uint8Array): boolean =>
  (bytes.length === 33 && (bytes[0] === 2 || bytes[0] === 3)) || (bytes.length === 65 && bytes[0] === 4);
