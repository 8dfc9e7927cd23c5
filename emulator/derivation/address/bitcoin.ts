/**
 * ADDRESS_FORMAT_BITCOIN_{MAINNET,TESTNET,SIGNET,REGTEST}_{P2PKH,P2SH,P2WPKH,P2WSH,P2TR}
 * from one compressed secp256k1 key.
 *
 * - P2PKH:  Base58Check(pkh version || HASH160(key)).
 * - P2SH:   P2SH-P2WPKH (BIP-49 style): redeem script 0x0014 || HASH160(key). (choice; UNCONFIRMED)
 * - P2WPKH: segwit v0 bech32 of HASH160(key).
 * - P2WSH:  segwit v0 bech32 of SHA256(witness script `<key> OP_CHECKSIG`). (choice; UNCONFIRMED)
 * - P2TR:   segwit v1 bech32m of the BIP-86 output key: the x-only key tweaked by
 *           TaggedHash("TapTweak", x) with no script tree.
 * Regtest uses HRP "bcrt"; signet shares testnet's "tb" and version bytes.
 */
import { concatBytes } from "@noble/hashes/utils.js";
import { base58, bech32, bech32m } from "@scure/base";
import { secp256k1XOnlyTweakAdd } from "../../curves/secp256k1.js";
import { hash160, sha256, taggedHash, withChecksum } from "./hash.js";
import { secp256k1Compressed } from "./pubkey.js";

export type BitcoinNetwork = "MAINNET" | "TESTNET" | "SIGNET" | "REGTEST";
export type BitcoinScript = "P2PKH" | "P2SH" | "P2WPKH" | "P2WSH" | "P2TR";

interface NetworkParams {
  pubKeyHash: number;
  scriptHash: number;
  hrp: string;
}

export const BITCOIN_NETWORKS: Record<BitcoinNetwork, NetworkParams> = {
  MAINNET: { pubKeyHash: 0x00, scriptHash: 0x05, hrp: "bc" },
  TESTNET: { pubKeyHash: 0x6f, scriptHash: 0xc4, hrp: "tb" },
  SIGNET: { pubKeyHash: 0x6f, scriptHash: 0xc4, hrp: "tb" },
  REGTEST: { pubKeyHash: 0x6f, scriptHash: 0xc4, hrp: "bcrt" },
};

const OP_0 = 0x00;
const OP_CHECKSIG = 0xac;

const base58check = (version: number, hash: Uint8Array): string =>
  base58.encode(withChecksum(concatBytes(new Uint8Array([version]), hash)));

function segwit(hrp: string, version: 0 | 1, program: Uint8Array): string {
  const words = [version, ...bech32.toWords(program)];
  return version === 0 ? bech32.encode(hrp, words) : bech32m.encode(hrp, words);
}

/** BIP-86 / BIP-341 output key (x-only, 32 bytes) for a key-path-only taproot output. */
export function taprootOutputKey(compressed: Uint8Array): Uint8Array {
  const x = compressed.subarray(1);
  return secp256k1XOnlyTweakAdd(x, taggedHash("TapTweak", x));
}

/** P2WSH witness script used for a single key: <33-byte key> OP_CHECKSIG. */
export function singleKeyWitnessScript(compressed: Uint8Array): Uint8Array {
  return concatBytes(new Uint8Array([0x21]), compressed, new Uint8Array([OP_CHECKSIG]));
}

/** P2SH-P2WPKH redeem script: OP_0 <20-byte key hash>. */
export function p2wpkhRedeemScript(compressed: Uint8Array): Uint8Array {
  return concatBytes(new Uint8Array([OP_0, 0x14]), hash160(compressed));
}

export function bitcoinAddress(publicKey: Uint8Array, network: BitcoinNetwork, script: BitcoinScript): string {
  const key = secp256k1Compressed(publicKey);
  const net = BITCOIN_NETWORKS[network];
  switch (script) {
    case "P2PKH":
      return base58check(net.pubKeyHash, hash160(key));
    case "P2SH":
      return base58check(net.scriptHash, hash160(p2wpkhRedeemScript(key)));
    case "P2WPKH":
      return segwit(net.hrp, 0, hash160(key));
    case "P2WSH":
      return segwit(net.hrp, 0, sha256(singleKeyWitnessScript(key)));
    case "P2TR":
      return segwit(net.hrp, 1, taprootOutputKey(key));
  }
}
