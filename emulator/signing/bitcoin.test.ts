import * as ecc from "@bitcoinerlab/secp256k1";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import * as bitcoin from "bitcoinjs-lib";
import { describe, expect, it } from "vitest";
import { InputError } from "../core/input-error.js";
import { describePsbt } from "./bitcoin-describe.js";
import { signBitcoinPsbt } from "./bitcoin.js";
import { SECP_KEY } from "./test-keys.fixture.js";

bitcoin.initEccLib(ecc);
const { payments, Psbt, Transaction } = bitcoin;

const pub = secp256k1.getPublicKey(SECP_KEY, true);
const xonly = pub.subarray(1);
const otherPub = secp256k1.getPublicKey(new Uint8Array(32).fill(0x11), true);
const dest = payments.p2wpkh({ pubkey: otherPub }).output!;

const p2pkh = payments.p2pkh({ pubkey: pub }).output!;
const p2wpkh = payments.p2wpkh({ pubkey: pub }).output!;
const p2tr = payments.p2tr({ internalPubkey: xonly }).output!;
const foreign = payments.p2wpkh({ pubkey: otherPub }).output!;

/** A funding transaction whose output `i` pays `scripts[i]`. */
function funding(scripts: Uint8Array[], values: bigint[]): bitcoin.Transaction {
  const tx = new Transaction();
  tx.addInput(new Uint8Array(32).fill(0xaa), 0);
  scripts.forEach((s, i) => tx.addOutput(s, values[i]!));
  return tx;
}

const validator = (pubkey: Uint8Array, msghash: Uint8Array, signature: Uint8Array) =>
  pubkey.length === 32 ? ecc.verifySchnorr(msghash, pubkey, signature) : ecc.verify(msghash, pubkey, signature);

function expectInvalid(psbt: bitcoin.Psbt, text: RegExp) {
  let err: unknown;
  try {
    signBitcoinPsbt(SECP_KEY, pub, psbt.toHex());
  } catch (e) {
    err = e;
  }
  expect(err).toBeInstanceOf(InputError);
  expect((err as InputError).path).toBe("unsignedTransaction");
  expect((err as InputError).message).toMatch(text);
}

describe("signBitcoinPsbt", () => {
  it("signs P2PKH, P2WPKH and P2TR inputs of this key; bitcoinjs validates, finalizes and extracts", () => {
    const prev = funding([p2pkh, p2wpkh, p2tr], [50_000n, 60_000n, 70_000n]);
    const psbt = new Psbt();
    psbt.addInput({ hash: prev.getId(), index: 0, nonWitnessUtxo: prev.toBuffer() });
    psbt.addInput({ hash: prev.getId(), index: 1, witnessUtxo: { script: p2wpkh, value: 60_000n } });
    psbt.addInput({ hash: prev.getId(), index: 2, witnessUtxo: { script: p2tr, value: 70_000n }, tapInternalKey: xonly });
    psbt.addOutput({ script: dest, value: 170_000n });

    const signed = Psbt.fromHex(signBitcoinPsbt(SECP_KEY, pub, psbt.toHex()));
    expect(signed.data.inputs[0]!.partialSig).toHaveLength(1);
    expect(signed.data.inputs[1]!.partialSig).toHaveLength(1);
    expect(signed.data.inputs[2]!.tapKeySig).toHaveLength(64); // SIGHASH_DEFAULT: no sighash byte
    expect(signed.data.inputs[0]!.partialSig![0]!.signature.at(-1)).toBe(Transaction.SIGHASH_ALL);
    expect(signed.data.inputs.every((i) => !i.finalScriptSig && !i.finalScriptWitness)).toBe(true); // not finalized
    expect(signed.validateSignaturesOfAllInputs(validator)).toBe(true);
    const tx = signed.finalizeAllInputs().extractTransaction();
    expect(tx.ins).toHaveLength(3);
    expect(tx.ins[2]!.witness[0]).toHaveLength(64);
  });

  it("adds tap_internal_key when the P2TR input lacks it", () => {
    const prev = funding([p2tr], [10_000n]);
    const psbt = new Psbt();
    psbt.addInput({ hash: prev.getId(), index: 0, witnessUtxo: { script: p2tr, value: 10_000n } });
    psbt.addOutput({ script: dest, value: 9_000n });
    const signed = Psbt.fromHex(signBitcoinPsbt(SECP_KEY, pub, psbt.toHex()));
    expect(signed.validateSignaturesOfAllInputs(validator)).toBe(true);
    signed.finalizeAllInputs().extractTransaction();
  });

  it("leaves inputs of other keys untouched and signs a P2WSH multisig that includes the key", () => {
    const ms = payments.p2wsh({ redeem: payments.p2ms({ m: 2, pubkeys: [pub, otherPub] }) });
    const prev = funding([foreign, p2wpkh, ms.output!], [1_000n, 2_000n, 3_000n]);
    const psbt = new Psbt();
    psbt.addInput({ hash: prev.getId(), index: 0, witnessUtxo: { script: foreign, value: 1_000n } });
    psbt.addInput({ hash: prev.getId(), index: 1, witnessUtxo: { script: p2wpkh, value: 2_000n } });
    psbt.addInput({ hash: prev.getId(), index: 2, witnessUtxo: { script: ms.output!, value: 3_000n }, witnessScript: ms.redeem!.output! });
    psbt.addOutput({ script: dest, value: 5_500n });
    const signed = Psbt.fromHex(signBitcoinPsbt(SECP_KEY, pub, psbt.toHex()));
    expect(signed.data.inputs[0]!.partialSig).toBeUndefined();
    expect(signed.validateSignaturesOfInput(1, validator)).toBe(true);
    expect(signed.validateSignaturesOfInput(2, validator, pub)).toBe(true);
    expect(signed.data.inputs[2]!.partialSig!.map((p) => Buffer.from(p.pubkey).toString("hex"))).toEqual([Buffer.from(pub).toString("hex")]);
  });

  it("errors when no input belongs to the key", () => {
    const prev = funding([foreign], [1_000n]);
    const psbt = new Psbt();
    psbt.addInput({ hash: prev.getId(), index: 0, witnessUtxo: { script: foreign, value: 1_000n } });
    psbt.addOutput({ script: dest, value: 900n });
    expectInvalid(psbt, /no input of this PSBT belongs to the signing key \(bc1q/);
  });

  it("enforces the PSBT input requirements", () => {
    const prev = funding([p2pkh, p2wpkh, p2tr], [1_000n, 1_000n, 1_000n]);
    const base = () => {
      const p = new Psbt();
      p.addOutput({ script: dest, value: 500n });
      return p;
    };
    // Legacy without non_witness_utxo.
    let p = base();
    p.addInput({ hash: prev.getId(), index: 0, witnessUtxo: { script: p2pkh, value: 1_000n } });
    expectInvalid(p, /input 0: p2pkh \(legacy\) input requires non_witness_utxo/);
    // SegWit with non_witness_utxo.
    p = base();
    p.addInput({ hash: prev.getId(), index: 1, nonWitnessUtxo: prev.toBuffer() });
    expectInvalid(p, /p2wpkh input requires witness_utxo/);
    // Missing UTXO information entirely.
    p = base();
    p.addInput({ hash: prev.getId(), index: 1 });
    expectInvalid(p, /missing witness_utxo or non_witness_utxo/);
    // Taproot script path.
    p = base();
    p.addInput({ hash: prev.getId(), index: 2, witnessUtxo: { script: p2tr, value: 1_000n }, tapMerkleRoot: new Uint8Array(32).fill(1) });
    expectInvalid(p, /Taproot script-path/);
    // P2WSH without witness_script.
    const wsh = payments.p2wsh({ redeem: payments.p2ms({ m: 1, pubkeys: [pub] }) }).output!;
    p = base();
    p.addInput({ hash: prev.getId(), index: 0, witnessUtxo: { script: wsh, value: 1_000n } });
    expectInvalid(p, /P2WSH input requires witness_script/);
    // Wrapped P2SH-P2WPKH.
    const wrapped = payments.p2sh({ redeem: payments.p2wpkh({ pubkey: pub }) });
    const prev2 = funding([wrapped.output!], [1_000n]);
    p = base();
    p.addInput({ hash: prev2.getId(), index: 0, nonWitnessUtxo: prev2.toBuffer(), redeemScript: wrapped.redeem!.output! });
    expectInvalid(p, /P2SH-wrapped SegWit/);
    // A sighash type other than SIGHASH_ALL on a SegWit input of this key.
    p = base();
    p.addInput({ hash: prev.getId(), index: 1, witnessUtxo: { script: p2wpkh, value: 1_000n }, sighashType: Transaction.SIGHASH_NONE });
    expectInvalid(p, /input 0 could not be signed with SIGHASH_ALL/);
  });

  it("rejects bytes that are not a PSBT", () => {
    expectInvalid({ toHex: () => "70736274ff00" } as bitcoin.Psbt, /not a valid PSBT/);
    expectInvalid({ toHex: () => "nothex" } as bitcoin.Psbt, /not valid hex/);
  });
});

describe("describePsbt", () => {
  it("lists outpoints, values, outputs and the fee", () => {
    const prev = funding([p2pkh, p2wpkh], [50_000n, 60_000n]);
    const psbt = new Psbt();
    psbt.addInput({ hash: prev.getId(), index: 0, nonWitnessUtxo: prev.toBuffer(), sequence: 0xfffffffd });
    psbt.addInput({ hash: prev.getId(), index: 1, witnessUtxo: { script: p2wpkh, value: 60_000n } });
    psbt.addOutput({ script: dest, value: 100_000n });
    psbt.addOutput({ script: Uint8Array.of(0x6a, 0x01, 0x2a), value: 0n }); // OP_RETURN: no address
    psbt.setLocktime(800_000);
    const summary = describePsbt(psbt.toHex());
    expect(summary.inputs).toEqual([
      { tx_id: prev.getId(), vout: 0, sequence: 0xfffffffd, value: 50_000 },
      { tx_id: prev.getId(), vout: 1, sequence: 0xffffffff, value: 60_000 },
    ]);
    expect({ version: summary.version, locktime: summary.locktime }).toEqual({ version: psbt.version, locktime: 800_000 });
    expect(summary.outputs[0]).toEqual({ address: payments.p2wpkh({ pubkey: otherPub }).address, value: 100_000, script: Buffer.from(dest).toString("hex") });
    expect(summary.outputs[1]).toEqual({ value: 0, script: "6a012a" });
    expect(summary.fee).toBe(10_000);
  });
});
