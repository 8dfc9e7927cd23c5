/** Summary of a PSBT for policies: spent outpoints with values, outputs, fee (all in satoshis). */
import type * as Bitcoin from "bitcoinjs-lib";
import { bitcoin } from "./bitcoinjs.js";
import { toHex } from "./hex.js";
import { prevoutOf } from "./bitcoin-inputs.js";
import { parsePsbtHex } from "./bitcoin.js";



export type PsbtSummary = {
  version: number;
  locktime: number;
  inputs: { tx_id: string; vout: number; sequence: number; value?: number }[];
  outputs: { address?: string; value: number; script: string }[];
  /** Inputs minus outputs; undefined when some input's value is not in the PSBT. */
  fee?: number;
};

export function describePsbt(psbtHex: string, network: Bitcoin.Network = bitcoin.networks.bitcoin): PsbtSummary {
  const psbt = parsePsbtHex(psbtHex);
  const inputs = psbt.txInputs.map((txIn, i) => {
    const prevout = prevoutOf(psbt, i);
    return {
      tx_id: toHex(Uint8Array.from(txIn.hash).reverse()),
      vout: txIn.index,
      sequence: txIn.sequence ?? 0xffffffff,
      ...(prevout ? { value: Number(prevout.value) } : {}),
    };
  });
  const outputs = psbt.txOutputs.map((o) => {
    let address: string | undefined;
    try {
      address = bitcoin.address.fromOutputScript(o.script, network);
    } catch {
      address = undefined;
    }
    return { ...(address ? { address } : {}), value: Number(o.value), script: toHex(o.script) };
  });
  const known = inputs.every((i) => i.value !== undefined);
  const fee = known
    ? inputs.reduce((a, i) => a + (i.value ?? 0), 0) - outputs.reduce((a, o) => a + o.value, 0)
    : undefined;
  return { version: psbt.version, locktime: psbt.locktime, inputs, outputs, ...(fee !== undefined ? { fee } : {}) };
}
