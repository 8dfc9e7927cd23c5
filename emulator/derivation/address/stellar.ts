/**
 * ADDRESS_FORMAT_XLM: Stellar StrKey account id "G…":
 * base32(version 6<<3 || ed25519 key || CRC16-XModem little-endian).
 */
import { base32 } from "@scure/base";
import { concatBytes } from "@noble/hashes/utils.js";
import { ed25519Key } from "./pubkey.js";

const ACCOUNT_ID_VERSION = 6 << 3;

function crc16xmodem(data: Uint8Array): number {
  let crc = 0;
  for (const byte of data) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc;
}

export function stellarAddress(publicKey: Uint8Array): string {
  const body = concatBytes(new Uint8Array([ACCOUNT_ID_VERSION]), ed25519Key(publicKey));
  const crc = crc16xmodem(body);
  return base32.encode(concatBytes(body, new Uint8Array([crc & 0xff, crc >> 8])));
}

export { crc16xmodem };
