/**
 * An EVM chain's transaction history by address, read from its blocks the way an indexer
 * does: each block's transactions and receipts, scanned once and kept. A transaction concerns
 * an address when the address sent it or is its `to`, or when one of its transfers moves
 * value to or from the address: the transaction's own value, its ERC-20 `Transfer` logs, the
 * calls of a gas-station batch (value moved by the delegated account's inner calls), and on a
 * local chain the ether the swap router pays out (its `Routed` event: an internal transfer, which
 * nothing else in a receipt shows).
 */
import { decodeEventLog, decodeFunctionData, getAddress, zeroAddress, type Hex } from "viem";
import type { EvmChain } from "./evm-chain.js";
import { GAS_DELEGATE_ABI } from "./gas-station/artifact.js";
import { LOCAL_SWAP_ROUTER_ABI } from "./defi/artifact.js";
import { SWAP_ROUTER } from "./defi/deploy.js";

export type EvmTransfer = { from: string; to: string; amount: bigint; token?: string };
export type EvmHistoryItem = {
  hash: string;
  blockNumber: bigint;
  blockHash: string;
  timestamp: number;
  from: string;
  to?: string;
  fee: bigint;
  success: boolean;
  transfers: EvmTransfer[];
};

type RpcTx = { hash: Hex; from: Hex; to: Hex | null; value: Hex; input: Hex };
type RpcBlock = { number: Hex; hash: Hex; timestamp: Hex; transactions: RpcTx[] };
type RpcReceipt = { status: Hex; gasUsed: Hex; effectiveGasPrice?: Hex; logs: { address: Hex; topics: Hex[]; data: Hex }[] };

const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";
/** How far back the first scan of an external node goes (a fork's history is not walked from genesis). */
const SCAN_WINDOW = 5_000n;

const lower = (a: string) => a.toLowerCase();

export class EvmHistory {
  private scanned = -1n;
  private readonly items: EvmHistoryItem[] = [];
  private readonly byAddress = new Map<string, EvmHistoryItem[]>();
  private scanning: Promise<void> | undefined;
  private readonly listeners: ((item: EvmHistoryItem) => void)[] = [];

  constructor(private readonly chain: EvmChain) {}

  /** Transactions concerning `address`, most recent first. */
  async of(address: string): Promise<EvmHistoryItem[]> {
    await this.catchUp();
    return [...(this.byAddress.get(lower(address)) ?? [])].reverse();
  }

  /** Calls `fn` for every transaction scanned from now on (the balance watcher). */
  subscribe(fn: (item: EvmHistoryItem) => void): void {
    this.listeners.push(fn);
  }

  /** Scans the blocks mined since the last scan. */
  catchUp(): Promise<void> {
    this.scanning ??= this.scan().finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  private async scan(): Promise<void> {
    const head = BigInt(await this.chain.rpc<Hex>("eth_blockNumber"));
    if (this.scanned < 0n && this.chain.backend.kind === "external" && head > SCAN_WINDOW) this.scanned = head - SCAN_WINDOW;
    for (let n = this.scanned + 1n; n <= head; n++) {
      const block = await this.chain.rpc<RpcBlock | null>("eth_getBlockByNumber", [`0x${n.toString(16)}`, true]);
      if (!block) break;
      for (const tx of block.transactions) await this.add(block, tx);
      this.scanned = n;
    }
  }

  private async add(block: RpcBlock, tx: RpcTx): Promise<void> {
    const receipt = await this.chain.rpc<RpcReceipt>("eth_getTransactionReceipt", [tx.hash]);
    const success = BigInt(receipt.status) === 1n;
    const transfers: EvmTransfer[] = [];
    if (success) {
      if (tx.to && BigInt(tx.value) > 0n) transfers.push({ from: getAddress(tx.from), to: getAddress(tx.to), amount: BigInt(tx.value) });
      for (const call of batchCalls(tx)) if (call.value > 0n) transfers.push({ from: getAddress(tx.to!), to: call.to, amount: call.value });
      for (const log of receipt.logs) {
        if (this.chain.backend.kind === "local" && lower(log.address) === lower(SWAP_ROUTER)) transfers.push(...routedEther(log));
        if (log.topics[0] !== TRANSFER_TOPIC || log.topics.length !== 3 || log.data.length !== 66) continue;
        transfers.push({ from: getAddress(`0x${log.topics[1]!.slice(26)}`), to: getAddress(`0x${log.topics[2]!.slice(26)}`), amount: BigInt(log.data), token: getAddress(log.address) });
      }
    }
    const item: EvmHistoryItem = {
      hash: tx.hash,
      blockNumber: BigInt(block.number),
      blockHash: block.hash,
      timestamp: Number(BigInt(block.timestamp)),
      from: getAddress(tx.from),
      ...(tx.to ? { to: getAddress(tx.to) } : {}),
      fee: BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice ?? "0x0"),
      success,
      transfers,
    };
    this.items.push(item);
    for (const fn of this.listeners) fn(item);
    const who = new Set([lower(tx.from), ...(tx.to ? [lower(tx.to)] : []), ...transfers.flatMap((t) => [lower(t.from), lower(t.to)])]);
    for (const a of who) {
      let list = this.byAddress.get(a);
      if (!list) this.byAddress.set(a, (list = []));
      list.push(item);
    }
  }
}

/** The ether the local swap router sent on in a swap to ether (its `Routed` event), or none. */
function routedEther(log: { topics: Hex[]; data: Hex }): EvmTransfer[] {
  try {
    const event = decodeEventLog({ abi: LOCAL_SWAP_ROUTER_ABI, topics: log.topics as [Hex, ...Hex[]], data: log.data });
    if (event.eventName !== "Routed" || event.args.tokenOut !== zeroAddress) return [];
    return [{ from: getAddress(SWAP_ROUTER), to: getAddress(event.args.to), amount: event.args.amountOut }];
  } catch {
    return [];
  }
}

/** The calls of a gas-station batch (`execute` on a delegated account), or none. */
function batchCalls(tx: RpcTx): { to: string; value: bigint }[] {
  if (!tx.to || !tx.input.startsWith("0x")) return [];
  try {
    const { functionName, args } = decodeFunctionData({ abi: GAS_DELEGATE_ABI, data: tx.input });
    if (functionName !== "execute") return [];
    return (args[0] as readonly { to: string; value: bigint }[]).map((c) => ({ to: getAddress(c.to), value: c.value }));
  } catch {
    return [];
  }
}

const histories = new WeakMap<EvmChain, EvmHistory>();

export function evmHistory(chain: EvmChain): EvmHistory {
  let h = histories.get(chain);
  if (!h) histories.set(chain, (h = new EvmHistory(chain)));
  return h;
}
