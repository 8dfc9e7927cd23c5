import { beforeAll, describe, expect, it } from "vitest";
import * as ecc from "@bitcoinerlab/secp256k1";
import { initEccLib, networks, payments, type Network } from "bitcoinjs-lib";
import { deriveKey } from "../keys/derive.js";
import { addressFor } from "./index.js";
import { SEEDS, testKeys } from "./keys.fixture.js";

beforeAll(() => initEccLib(ecc));

const NETWORKS: Record<string, Network> = {
  MAINNET: networks.bitcoin,
  TESTNET: networks.testnet,
  SIGNET: networks.testnet, // signet shares testnet's version bytes and "tb" HRP
  REGTEST: networks.regtest, // bech32 "bcrt"
};

function oracle(script: string, pubkey: Buffer, network: Network): string | undefined {
  switch (script) {
    case "P2PKH":
      return payments.p2pkh({ pubkey, network }).address;
    case "P2SH":
      return payments.p2sh({ redeem: payments.p2wpkh({ pubkey, network }), network }).address;
    case "P2WPKH":
      return payments.p2wpkh({ pubkey, network }).address;
    case "P2WSH":
      return payments.p2wsh({ redeem: payments.p2pk({ pubkey, network }), network }).address;
    case "P2TR":
      return payments.p2tr({ internalPubkey: pubkey.subarray(1, 33), network }).address;
  }
  return undefined;
}

describe("ADDRESS_FORMAT_BITCOIN_* (oracle: bitcoinjs-lib payments)", () => {
  for (const net of Object.keys(NETWORKS)) {
    for (const script of ["P2PKH", "P2SH", "P2WPKH", "P2WSH", "P2TR"]) {
      const format = `ADDRESS_FORMAT_BITCOIN_${net}_${script}`;
      it(format, () => {
        for (const k of testKeys(format)) {
          const expected = oracle(script, Buffer.from(k.publicKey), NETWORKS[net]!);
          expect(expected).toBeTruthy();
          expect(addressFor(format, k.curve, k.publicKey)).toBe(expected);
        }
      });
    }
  }

  it("regtest uses the bcrt HRP and signet the tb HRP", () => {
    const [k] = testKeys("ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH");
    expect(addressFor("ADDRESS_FORMAT_BITCOIN_REGTEST_P2WPKH", k!.curve, k!.publicKey)).toMatch(/^bcrt1q/);
    expect(addressFor("ADDRESS_FORMAT_BITCOIN_REGTEST_P2TR", k!.curve, k!.publicKey)).toMatch(/^bcrt1p/);
    expect(addressFor("ADDRESS_FORMAT_BITCOIN_SIGNET_P2TR", k!.curve, k!.publicKey)).toMatch(/^tb1p/);
  });
});

describe("published BIP test vectors for `abandon … about`", () => {
  const seed = SEEDS[0]!;
  const at = (path: string) => deriveKey(seed, "CURVE_SECP256K1", path).publicKey;
  it("BIP-44 m/44'/0'/0'/0/0 P2PKH", () => {
    expect(addressFor("ADDRESS_FORMAT_BITCOIN_MAINNET_P2PKH", "CURVE_SECP256K1", at("m/44'/0'/0'/0/0"))).toBe(
      "1LqBGSKuX5yYUonjxT5qGfpUsXKYYWeabA",
    );
  });
  it("BIP-49 m/49'/1'/0'/0/0 P2SH-P2WPKH on testnet", () => {
    expect(addressFor("ADDRESS_FORMAT_BITCOIN_TESTNET_P2SH", "CURVE_SECP256K1", at("m/49'/1'/0'/0/0"))).toBe(
      "2Mww8dCYPUpKHofjgcXcBCEGmniw9CoaiD2",
    );
  });
  it("BIP-84 m/84'/0'/0'/0/0 P2WPKH", () => {
    expect(addressFor("ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH", "CURVE_SECP256K1", at("m/84'/0'/0'/0/0"))).toBe(
      "bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu",
    );
  });
  it("BIP-86 m/86'/0'/0'/0/0 P2TR", () => {
    expect(addressFor("ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR", "CURVE_SECP256K1", at("m/86'/0'/0'/0/0"))).toBe(
      "bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr",
    );
  });
});
