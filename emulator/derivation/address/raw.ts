/** ADDRESS_FORMAT_UNCOMPRESSED / ADDRESS_FORMAT_COMPRESSED: the public key itself, lowercase hex, no 0x. */
import { bytesToHex } from "@noble/hashes/utils.js";
import type { Curve } from "../keys/curve.js";
import { ed25519Key, weierstrassKey } from "./pubkey.js";

/** 65-byte SEC1 04||X||Y (secp256k1 or P-256). */
export function uncompressedAddress(curve: "CURVE_SECP256K1" | "CURVE_P256", publicKey: Uint8Array): string {
  return bytesToHex(weierstrassKey(curve, publicKey).uncompressed);
}

/** 33-byte SEC1 compressed point (secp256k1 / P-256) or the 32-byte ed25519 key. */
export function compressedAddress(curve: Curve, publicKey: Uint8Array): string {
  if (curve === "CURVE_ED25519") return bytesToHex(ed25519Key(publicKey));
  return bytesToHex(weierstrassKey(curve, publicKey).compressed);
}
