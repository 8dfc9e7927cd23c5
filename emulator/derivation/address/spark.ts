/**
 * ADDRESS_FORMAT_SPARK_MAINNET / _REGTEST: bech32m with HRP "spark" / "sparkrt" over the
 * protobuf SparkAddress message holding only field 1 (identity_public_key, bytes):
 * 0x0a 0x21 || 33-byte compressed secp256k1 key. This is what @buildonspark/spark-sdk's
 * encodeSparkAddress produces for a plain (non-invoice) address; the service's payload
 * is UNCONFIRMED.
 */
import { bech32m } from "@scure/base";
import { concatBytes } from "@noble/hashes/utils.js";
import { secp256k1Compressed } from "./pubkey.js";

export const SPARK_HRP = { mainnet: "spark", regtest: "sparkrt" } as const;
const BECH32M_LIMIT = 1024;

export function sparkAddress(publicKey: Uint8Array, network: keyof typeof SPARK_HRP): string {
  const payload = concatBytes(new Uint8Array([0x0a, 0x21]), secp256k1Compressed(publicKey));
  return bech32m.encode(SPARK_HRP[network], bech32m.toWords(payload), BECH32M_LIMIT);
}
