import { describe, expect, it } from "vitest";
import { privateKeyToAccount } from "viem/accounts";
import { Keypair } from "@solana/web3.js";
import * as bitcoin from "bitcoinjs-lib";
import * as ecc from "@bitcoinerlab/secp256k1";
import { checkDestinationAddress } from "./addresses.js";
import { NETWORKS } from "./catalog.js";

const ETH = NETWORKS.FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM;
const SOL = NETWORKS.FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_SOLANA;
const BTC = NETWORKS.FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BITCOIN;

// A fixed compressed secp256k1 public key (the generator point G): bitcoinjs-lib builds every address type from it.
const G = Buffer.from("0279be667ef9dcbbac55a06295ce870b07029bfcdb2dce28d959f2815b16f81798", "hex");
const xOnlyG = G.subarray(1);
bitcoin.initEccLib(ecc);

describe("destination address checks (addresses made by viem, @solana/web3.js and bitcoinjs-lib)", () => {
  it("EVM: checksummed, lower-case and upper-case forms pass; a broken checksum or shape fails", () => {
    const a = privateKeyToAccount(`0x${"22".repeat(32)}`).address;
    expect(() => checkDestinationAddress(a, ETH)).not.toThrow();
    expect(() => checkDestinationAddress(a.toLowerCase(), ETH)).not.toThrow();
    expect(() => checkDestinationAddress(`0x${a.slice(2).toUpperCase()}`, ETH)).not.toThrow();
    const i = [...a.slice(2)].findIndex((c) => /[a-f]/i.test(c)) + 2;
    const flipped = a.slice(0, i) + (a[i] === a[i]!.toUpperCase() ? a[i]!.toLowerCase() : a[i]!.toUpperCase()) + a.slice(i + 1);
    expect(() => checkDestinationAddress(flipped, ETH)).toThrow(/EIP-55 checksum/);
    for (const bad of ["", "0x123", a.slice(2), `${a}00`, "0xZZ97970C51812dc3A010C7d01b50e0d17dc79C8"]) expect(() => checkDestinationAddress(bad, ETH), bad).toThrow();
  });

  it("Solana: a base58 32-byte key passes; other lengths and alphabets fail", () => {
    expect(() => checkDestinationAddress(Keypair.generate().publicKey.toBase58(), SOL)).not.toThrow();
    expect(() => checkDestinationAddress("11111111111111111111111111111111", SOL)).not.toThrow();
    expect(() => checkDestinationAddress("abc", SOL)).toThrow(/32-byte/);
    expect(() => checkDestinationAddress("0OIl" + "1".repeat(30), SOL)).toThrow(/base58/);
  });

  it("Bitcoin: P2PKH, P2SH, P2WPKH, P2WSH and P2TR on mainnet and testnet pass; corrupt ones fail", () => {
    const made: string[] = [];
    for (const network of [bitcoin.networks.bitcoin, bitcoin.networks.testnet]) {
      made.push(bitcoin.payments.p2pkh({ pubkey: G, network }).address!);
      made.push(bitcoin.payments.p2sh({ redeem: bitcoin.payments.p2wpkh({ pubkey: G, network }), network }).address!);
      made.push(bitcoin.payments.p2wpkh({ pubkey: G, network }).address!);
      made.push(bitcoin.payments.p2wsh({ redeem: bitcoin.payments.p2pkh({ pubkey: G, network }), network }).address!);
      made.push(bitcoin.payments.p2tr({ internalPubkey: xOnlyG, network }).address!);
    }
    for (const a of made) expect(() => checkDestinationAddress(a, BTC), a).not.toThrow();
    const p2wpkh = made[2]!;
    expect(() => checkDestinationAddress(p2wpkh.slice(0, -1) + (p2wpkh.endsWith("q") ? "p" : "q"), BTC)).toThrow(/segwit/);
    expect(() => checkDestinationAddress(made[0]!.slice(0, -1) + (made[0]!.endsWith("1") ? "2" : "1"), BTC)).toThrow(/Bitcoin address/);
    // A v1 program encoded with bech32 (not bech32m) is not a valid taproot address (BIP-350).
    expect(() => checkDestinationAddress("bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx", BTC)).toThrow(/segwit/);
    expect(() => checkDestinationAddress(privateKeyToAccount(`0x${"22".repeat(32)}`).address, BTC)).toThrow();
  });
});
