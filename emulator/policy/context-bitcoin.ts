/**
 * `bitcoin.tx` from an already-described transaction (PSBT parsing lives with the
 * Bitcoin chain module). This only maps the description to the policy field names.
 */

export interface BitcoinTxDescription {
  version: number;
  inputs: readonly { txId: string; vout: number; sequence: number }[];
  outputs: readonly { value: bigint | number; scriptPubKey: string; address?: string; addressType?: string }[];
  locktime: { amount: bigint | number; type: "Seconds" | "Blocks" };
  /** Sum of inputs minus sum of outputs, in satoshis; absent when an input's value is unknown. */
  fee?: bigint | number;
}

export function buildBitcoinTxContext(d: BitcoinTxDescription): Record<string, unknown> {
  return {
    version: BigInt(d.version),
    inputs: d.inputs.map((i) => ({ tx_id: i.txId, vout: BigInt(i.vout), sequence: BigInt(i.sequence) })),
    outputs: d.outputs.map((o) => {
      const out: Record<string, unknown> = { value: BigInt(o.value), script_pubkey: o.scriptPubKey.toLowerCase() };
      if (o.address !== undefined) out.address = o.address;
      if (o.addressType !== undefined) out.address_type = o.addressType;
      return out;
    }),
    locktime: { amount: BigInt(d.locktime.amount), type: d.locktime.type },
    // An unknown fee stays absent: a policy reading it then errors instead of seeing 0.
    ...(d.fee !== undefined ? { fee: BigInt(d.fee) } : {}),
  };
}
