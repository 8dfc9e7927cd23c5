/**
 * A Solana address's transaction history, read from the cluster's JSON-RPC
 * (getSignaturesForAddress, then getTransaction): signers, fee payer, fee, and the transfers
 * its instructions (and inner instructions) made: System Program transfers of SOL and SPL
 * Token transfers (Transfer / TransferChecked), whose token accounts are resolved to their
 * owners and mint.
 */
import { base58 } from "@scure/base";
import type { SolanaChain } from "./solana-chain.js";
import { readTokenAccount, TOKEN_2022_PROGRAM, TOKEN_PROGRAM } from "./solana-token.js";

const SYSTEM_PROGRAM = "11111111111111111111111111111111";

export type SolanaTransfer = { from: string; to: string; amount: bigint; mint?: string; decimals?: number };
export type SolanaHistoryItem = {
  signature: string;
  slot: bigint;
  blockTime: number;
  blockhash?: string;
  feePayer: string;
  signers: { address: string; writable: boolean }[];
  fee: bigint;
  success: boolean;
  transfers: SolanaTransfer[];
};

type JsonIx = { programIdIndex: number; accounts: number[]; data: string };
type JsonTx = {
  slot: number;
  blockTime: number | null;
  transaction: { signatures: string[]; message: { accountKeys: string[]; header: { numRequiredSignatures: number; numReadonlySignedAccounts: number }; instructions: JsonIx[] } };
  meta: { err: unknown; fee: number; innerInstructions?: { index: number; instructions: JsonIx[] }[]; loadedAddresses?: { writable: string[]; readonly: string[] } };
};

function u64(data: Uint8Array, at: number): bigint {
  return new DataView(data.buffer, data.byteOffset, data.byteLength).getBigUint64(at, true);
}

type TokenAccountOf = (key: string) => Promise<{ owner: string; mint: string } | null>;

function tokenAccountReader(chain: SolanaChain): TokenAccountOf {
  const cache = new Map<string, { owner: string; mint: string } | null>();
  return async (key) => {
    if (!cache.has(key)) {
      const r = await chain.rpc<{ value: { data: [string, string] } | null }>("getAccountInfo", [key, { encoding: "base64" }]).catch(() => ({ value: null }));
      const data = r.value ? Buffer.from(r.value.data[0], "base64") : undefined;
      cache.set(key, data && data.length >= 165 ? readTokenAccount(data) : null);
    }
    return cache.get(key)!;
  };
}

/** Up to `limit` transactions concerning `address`, most recent first. */
export async function solanaHistory(chain: SolanaChain, address: string, limit = 1000): Promise<SolanaHistoryItem[]> {
  const sigs = await chain.rpc<{ signature: string }[]>("getSignaturesForAddress", [address, { limit }]);
  const tokenAccount = tokenAccountReader(chain);
  const out: SolanaHistoryItem[] = [];
  for (const { signature } of sigs) {
    const item = await solanaTransaction(chain, signature, tokenAccount);
    if (item) out.push(item);
  }
  return out;
}

/** One landed transaction as a history item (undefined when the cluster does not have it). */
export async function solanaTransaction(chain: SolanaChain, signature: string, tokenAccount: TokenAccountOf = tokenAccountReader(chain)): Promise<SolanaHistoryItem | undefined> {
  const tx = await chain.rpc<JsonTx | null>("getTransaction", [signature, { encoding: "json", maxSupportedTransactionVersion: 0, commitment: "confirmed" }]);
  if (!tx) return undefined;
  const msg = tx.transaction.message;
  const keys = [...msg.accountKeys, ...(tx.meta.loadedAddresses?.writable ?? []), ...(tx.meta.loadedAddresses?.readonly ?? [])];
  const h = msg.header;
  const signers = msg.accountKeys.slice(0, h.numRequiredSignatures).map((a, i) => ({ address: a, writable: i < h.numRequiredSignatures - h.numReadonlySignedAccounts }));
  const transfers: SolanaTransfer[] = [];
  if (!tx.meta.err) {
    const ixs = [...msg.instructions, ...(tx.meta.innerInstructions ?? []).flatMap((x) => x.instructions)];
    for (const ix of ixs) {
      const program = keys[ix.programIdIndex];
      const data = base58.decode(ix.data);
      const acct = (i: number) => keys[ix.accounts[i]!]!;
      if (program === SYSTEM_PROGRAM && data.length >= 12 && data[0] === 2 && data[1] === 0 && data[2] === 0 && data[3] === 0) {
        transfers.push({ from: acct(0), to: acct(1), amount: u64(data, 4) });
      } else if ((program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM) && (data[0] === 3 || data[0] === 12) && data.length >= 9) {
        const checked = data[0] === 12;
        const source = await tokenAccount(acct(0));
        const dest = await tokenAccount(acct(checked ? 2 : 1));
        const mint = checked ? acct(1) : (source?.mint ?? dest?.mint);
        transfers.push({ from: source?.owner ?? acct(0), to: dest?.owner ?? acct(checked ? 2 : 1), amount: u64(data, 1), ...(mint ? { mint } : {}), ...(checked ? { decimals: data[9] } : {}) });
      }
    }
  }
  const blockhash = chain.localEngine?.blockhashOf(BigInt(tx.slot));
  return {
    signature: tx.transaction.signatures[0] ?? signature,
    slot: BigInt(tx.slot),
    blockTime: tx.blockTime ?? 0,
    ...(blockhash ? { blockhash } : {}),
    feePayer: msg.accountKeys[0]!,
    signers,
    fee: BigInt(tx.meta.fee),
    success: !tx.meta.err,
    transfers,
  };
}
