/**
 * What a chain offers the rest of the emulator, whatever runs it (the embedded engine or an
 * external node): JSON-RPC, balances, sending signed transactions and their fate, and the
 * developer controls (mine, automine, fund).
 */
import type { JsonRpcRequest, JsonRpcResponse } from "./rpc.js";

/** Where a sent transaction stands. */
export type TxStatus =
  /** Accepted and waiting for a block (automine off, or an external node still working). */
  | { status: "pending"; hash: string }
  /** In a block (EVM block / Solana slot) and successful. `blockHash`: EVM only. */
  | { status: "included"; hash: string; blockNumber: bigint; blockHash?: string; fee: bigint }
  /** In a block and failed (reverted / instruction error), or rejected outright (`blockNumber` absent). */
  | { status: "failed"; hash: string; blockNumber?: bigint; blockHash?: string; fee?: bigint; error: TxFailure }
  /** Never seen by this chain. */
  | { status: "unknown"; hash: string };

export type TxFailure = {
  message: string;
  /** EVM: the decoded revert reason (`Error(string)`, `Panic(uint256)`), when there is one. */
  revertReason?: string;
  /** EVM: the raw revert data (hex), when the call returned any. */
  revertData?: string;
  /** Solana: the transaction error as the JSON-RPC reports it (e.g. `{InstructionError: [0, {Custom: 1}]}`). */
  solanaError?: unknown;
  /** Solana: the program logs. */
  logs?: string[];
};

export type ChainBackend = { kind: "local" } | { kind: "external"; url: string };

export interface Chain {
  readonly caip2: string;
  readonly namespace: "eip155" | "solana";
  readonly backend: ChainBackend;
  /** Answers one JSON-RPC request the way the chain's node does. */
  handleRpc(req: JsonRpcRequest): Promise<JsonRpcResponse>;
  /** Native balance in the smallest unit (wei, lamports); with `asset`, an ERC-20 contract or SPL mint balance. */
  getBalance(address: string, asset?: string): Promise<bigint>;
  /** Broadcasts a signed transaction (EVM: 0x-hex RLP; Solana: wire bytes or base64). Returns its hash / signature. */
  sendRawTransaction(raw: string | Uint8Array): Promise<string>;
  getTransactionStatus(hash: string): Promise<TxStatus>;
  /** Mines `blocks` blocks (default 1), including whatever is pending. */
  mine(blocks?: number): Promise<void>;
  setAutomine(enabled: boolean): Promise<void>;
  /** Adds `amount` (smallest unit) of the native coin, or of `asset`, to `address`. */
  fund(address: string, amount: bigint, asset?: string): Promise<void>;
  close(): Promise<void>;
}
