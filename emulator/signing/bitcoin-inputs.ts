/**
 * Classification of PSBT inputs by the script they spend, and the structural rules the
 * service enforces before signing (behaviour-facts §5.2):
 * - legacy (P2PKH, P2SH): non_witness_utxo required, witness_utxo forbidden; P2SH needs redeem_script;
 * - SegWit / Taproot (P2WPKH, P2WSH, P2TR): witness_utxo required, non_witness_utxo forbidden;
 *   P2WSH needs witness_script;
 * - P2SH-wrapped SegWit and Taproot script-path fields are rejected.
 * The rules are applied to every input, not only to this key's (UNCONFIRMED: the docs list
 * them as PSBT requirements without saying they are per-signer).
 */
import type { Psbt, Transaction } from "bitcoinjs-lib";
import { bitcoin } from "./bitcoinjs.js";


import { InputError } from "../core/input-error.js";
import { toHex } from "./hex.js";

const FIELD = "unsignedTransaction";

export type ScriptKind = "p2pkh" | "p2sh" | "p2wpkh" | "p2wsh" | "p2tr" | "other";
export type PsbtInputData = Psbt["data"]["inputs"][number];
export type Prevout = { script: Uint8Array; value: bigint };

export function scriptKind(s: Uint8Array): ScriptKind {
  if (s.length === 25 && s[0] === 0x76 && s[1] === 0xa9 && s[2] === 0x14 && s[23] === 0x88 && s[24] === 0xac) return "p2pkh";
  if (s.length === 23 && s[0] === 0xa9 && s[1] === 0x14 && s[22] === 0x87) return "p2sh";
  if (s.length === 22 && s[0] === 0x00 && s[1] === 0x14) return "p2wpkh";
  if (s.length === 34 && s[0] === 0x00 && s[1] === 0x20) return "p2wsh";
  if (s.length === 34 && s[0] === 0x51 && s[1] === 0x20) return "p2tr";
  return "other";
}

function bad(index: number, reason: string): never {
  throw new InputError(`${FIELD}: PSBT input ${index}: ${reason}`, FIELD);
}

/** The output an input spends, from witness_utxo or non_witness_utxo (checked against the input's txid). */
export function prevoutOf(psbt: Psbt, index: number): Prevout | undefined {
  const input = psbt.data.inputs[index]!;
  if (input.witnessUtxo) return { script: input.witnessUtxo.script, value: input.witnessUtxo.value };
  if (input.nonWitnessUtxo) {
    const txIn = psbt.txInputs[index]!;
    let prev: Transaction;
    try {
      prev = bitcoin.Transaction.fromBuffer(input.nonWitnessUtxo);
    } catch {
      bad(index, "non_witness_utxo is not a valid transaction");
    }
    if (toHex(prev.getHash()) !== toHex(txIn.hash)) bad(index, "non_witness_utxo does not match the input's previous txid");
    const out = prev.outs[txIn.index];
    if (!out) bad(index, `non_witness_utxo has no output ${txIn.index}`);
    return { script: out.script, value: out.value };
  }
  return undefined;
}

/** Enforces the structural rules for one input and returns what it spends. */
export function checkInput(psbt: Psbt, index: number): { kind: ScriptKind; prevout: Prevout } {
  const input = psbt.data.inputs[index]!;
  const prevout = prevoutOf(psbt, index);
  if (!prevout) bad(index, "missing witness_utxo or non_witness_utxo");
  const kind = scriptKind(prevout.script);
  switch (kind) {
    case "p2pkh":
    case "p2sh":
      if (!input.nonWitnessUtxo) bad(index, `${kind} (legacy) input requires non_witness_utxo`);
      if (input.witnessUtxo) bad(index, `${kind} (legacy) input must not carry witness_utxo`);
      if (kind === "p2sh") {
        if (!input.redeemScript) bad(index, "P2SH input requires redeem_script");
        const inner = scriptKind(input.redeemScript);
        if (inner === "p2wpkh" || inner === "p2wsh" || inner === "p2tr") {
          bad(index, "P2SH-wrapped SegWit inputs are not supported");
        }
      }
      break;
    case "p2wpkh":
    case "p2wsh":
    case "p2tr":
      if (!input.witnessUtxo) bad(index, `${kind} input requires witness_utxo`);
      if (input.nonWitnessUtxo) bad(index, `${kind} input must not carry non_witness_utxo`);
      if (kind === "p2wsh" && !input.witnessScript) bad(index, "P2WSH input requires witness_script");
      if (kind === "p2tr") {
        if (input.tapLeafScript?.length || input.tapMerkleRoot || input.tapScriptSig?.length) {
          bad(index, "Taproot script-path inputs (tap_scripts, tap_merkle_root, tap_script_sigs) are not supported");
        }
      }
      break;
    case "other":
      break;
  }
  return { kind, prevout };
}
