/**
 * The address-format registry: for each `ADDRESS_FORMAT_*` value, the curves it accepts,
 * the default derivation path (from the official SDK's DEFAULT_*_ACCOUNTS helpers, with the
 * index where those helpers put it), and its encoder.
 */
import type { Curve } from "../keys/curve.js";
import { aptosAddress } from "./aptos.js";
import { bitcoinAddress, type BitcoinNetwork, type BitcoinScript } from "./bitcoin.js";
import { cosmosAddress } from "./cosmos.js";
import { dogeAddress } from "./doge.js";
import { ethereumAddress } from "./ethereum.js";
import { compressedAddress, uncompressedAddress } from "./raw.js";
import { solanaAddress } from "./solana.js";
import { sparkAddress } from "./spark.js";
import { stellarAddress } from "./stellar.js";
import { suiAddress } from "./sui.js";
import { tonAddress } from "./ton.js";
import { tronAddress } from "./tron.js";
import { xrpAddress } from "./xrp.js";

/** All values of the swagger enum `v1AddressFormat`, in its order. */
export const ADDRESS_FORMATS = [
  "ADDRESS_FORMAT_UNCOMPRESSED",
  "ADDRESS_FORMAT_COMPRESSED",
  "ADDRESS_FORMAT_ETHEREUM",
  "ADDRESS_FORMAT_SOLANA",
  "ADDRESS_FORMAT_COSMOS",
  "ADDRESS_FORMAT_TRON",
  "ADDRESS_FORMAT_SUI",
  "ADDRESS_FORMAT_APTOS",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_TESTNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2SH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2PKH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2SH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2WSH",
  "ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR",
  "ADDRESS_FORMAT_SEI",
  "ADDRESS_FORMAT_XLM",
  "ADDRESS_FORMAT_DOGE_MAINNET",
  "ADDRESS_FORMAT_DOGE_TESTNET",
  "ADDRESS_FORMAT_TON_V3R2",
  "ADDRESS_FORMAT_TON_V4R2",
  "ADDRESS_FORMAT_TON_V5R1",
  "ADDRESS_FORMAT_XRP",
  "ADDRESS_FORMAT_SPARK_MAINNET",
  "ADDRESS_FORMAT_SPARK_REGTEST",
] as const;
export type AddressFormat = (typeof ADDRESS_FORMATS)[number];

export interface FormatSpec {
  curves: readonly Curve[];
  /** Default path for account index `i` (SDK convention), or null when there is none. */
  defaultPath: (i: number) => string;
  /** Encodes a public key already checked to be on one of `curves`. */
  encode: (curve: Curve, publicKey: Uint8Array) => string;
}

const K1: readonly Curve[] = ["CURVE_SECP256K1"];
const ED: readonly Curve[] = ["CURVE_ED25519"];

type BitcoinFormat = `ADDRESS_FORMAT_BITCOIN_${BitcoinNetwork}_${BitcoinScript}`;

function bitcoinSpecs(): Record<BitcoinFormat, FormatSpec> {
  const out = {} as Record<BitcoinFormat, FormatSpec>;
  const purpose: Record<BitcoinScript, (coin: number, i: number) => string> = {
    P2PKH: (c, i) => `m/44'/${c}'/${i}'/0/0`,
    P2SH: (c, i) => `m/44'/${c}'/${i}'/0/0`,
    P2WPKH: (c, i) => `m/84'/${c}'/${i}'/0/0`,
    P2WSH: (c, i) => `m/48'/${c}'/${i}'/2'/0/0`,
    P2TR: (c, i) => `m/86'/${c}'/${i}'/0/0`,
  };
  for (const network of ["MAINNET", "TESTNET", "SIGNET", "REGTEST"] as BitcoinNetwork[]) {
    const coin = network === "MAINNET" ? 0 : 1;
    for (const script of Object.keys(purpose) as BitcoinScript[]) {
      out[`ADDRESS_FORMAT_BITCOIN_${network}_${script}`] = {
        curves: K1,
        defaultPath: (i) => purpose[script](coin, i),
        encode: (_c, pk) => bitcoinAddress(pk, network, script),
      };
    }
  }
  return out;
}

export const FORMAT_SPECS: Record<AddressFormat, FormatSpec> = {
  ADDRESS_FORMAT_UNCOMPRESSED: {
    curves: ["CURVE_SECP256K1", "CURVE_P256"],
    defaultPath: (i) => `m/${i}'/0`,
    encode: (c, pk) => uncompressedAddress(c as "CURVE_SECP256K1" | "CURVE_P256", pk),
  },
  ADDRESS_FORMAT_COMPRESSED: {
    curves: ["CURVE_SECP256K1", "CURVE_ED25519", "CURVE_P256"],
    defaultPath: (i) => `m/${i}'/0`,
    encode: compressedAddress,
  },
  ADDRESS_FORMAT_ETHEREUM: { curves: K1, defaultPath: (i) => `m/44'/60'/${i}'/0/0`, encode: (_c, pk) => ethereumAddress(pk) },
  ADDRESS_FORMAT_SOLANA: { curves: ED, defaultPath: (i) => `m/44'/501'/${i}'/0'`, encode: (_c, pk) => solanaAddress(pk) },
  ADDRESS_FORMAT_COSMOS: { curves: K1, defaultPath: (i) => `m/44'/118'/${i}'/0/0`, encode: (_c, pk) => cosmosAddress(pk, "cosmos") },
  ADDRESS_FORMAT_TRON: { curves: K1, defaultPath: (i) => `m/44'/195'/${i}'`, encode: (_c, pk) => tronAddress(pk) },
  ADDRESS_FORMAT_SUI: { curves: ED, defaultPath: (i) => `m/44'/784'/${i}'/0'/0'`, encode: (_c, pk) => suiAddress(pk) },
  ADDRESS_FORMAT_APTOS: { curves: ED, defaultPath: (i) => `m/44'/637'/${i}'/0'/0'`, encode: (_c, pk) => aptosAddress(pk) },
  ...bitcoinSpecs(),
  ADDRESS_FORMAT_SEI: { curves: K1, defaultPath: (i) => `m/44'/118'/${i}'/0'/0'`, encode: (_c, pk) => cosmosAddress(pk, "sei") },
  ADDRESS_FORMAT_XLM: { curves: ED, defaultPath: (i) => `m/44'/148'/${i}'`, encode: (_c, pk) => stellarAddress(pk) },
  ADDRESS_FORMAT_DOGE_MAINNET: { curves: K1, defaultPath: (i) => `m/44'/3'/${i}'/0/0`, encode: (_c, pk) => dogeAddress(pk, "mainnet") },
  ADDRESS_FORMAT_DOGE_TESTNET: { curves: K1, defaultPath: (i) => `m/44'/3'/${i}'/0/0`, encode: (_c, pk) => dogeAddress(pk, "testnet") },
  ADDRESS_FORMAT_TON_V3R2: { curves: ED, defaultPath: (i) => `m/44'/607'/${i}'/0'/0'`, encode: (_c, pk) => tonAddress("V3R2", pk) },
  ADDRESS_FORMAT_TON_V4R2: { curves: ED, defaultPath: (i) => `m/44'/607'/${i}'/0'/0'`, encode: (_c, pk) => tonAddress("V4R2", pk) },
  ADDRESS_FORMAT_TON_V5R1: { curves: ED, defaultPath: (i) => `m/44'/607'/${i}'/0'/0'`, encode: (_c, pk) => tonAddress("V5R1", pk) },
  ADDRESS_FORMAT_XRP: { curves: K1, defaultPath: (i) => `m/44'/144'/${i}'/0'/0'`, encode: (_c, pk) => xrpAddress(pk) },
  ADDRESS_FORMAT_SPARK_MAINNET: { curves: K1, defaultPath: (i) => `m/86'/0'/${i}'/0/0`, encode: (_c, pk) => sparkAddress(pk, "mainnet") },
  ADDRESS_FORMAT_SPARK_REGTEST: { curves: K1, defaultPath: (i) => `m/86'/1'/${i}'/0/0`, encode: (_c, pk) => sparkAddress(pk, "regtest") },
};
