/**
 * Watches an instance's chains and turns what happens on them into events (emulator/core/events.ts):
 * - SEND_TRANSACTION_STATUS_UPDATES: each send the emulator recorded, once per status it
 *   reaches (BROADCASTING when recorded, then INCLUDED or FAILED); the last status emitted is
 *   kept in the send's row, so a restart or a status query never repeats one.
 * - BALANCE_CONFIRMED_UPDATES and BALANCE_FINALIZED_UPDATES: every transfer to or from a wallet
 *   account address of an organization (native coin, ERC-20, SPL), one per address, asset and
 *   operation (deposit / withdraw) of a transaction. Local chains have instant finality, so
 *   both are emitted together. Private-key addresses get none (as documented).
 * It runs when poked (a send, a mine, an RPC call) and every half second while chains exist.
 * While no active webhook endpoint subscribes to these types it reads nothing from the chains:
 * sends made meanwhile are marked UNWATCHED (never reported), and blocks mined meanwhile are
 * skipped when a subscription appears, so a new subscriber gets no backlog.
 */
import type { Runtime } from "../../core/runtime.js";
import type { Chain } from "./chain.js";
import type { EvmChain } from "./evm-chain.js";
import type { SolanaChain } from "./solana-chain.js";
import { BALANCE_OPERATIONS, SEND_STATUSES, type BalanceEvent } from "../../core/events.js";
import type { EventType } from "../../core/events.js";
import { nativeAsset, tokenCaip19, type AssetMeta } from "./assets.js";
import { organizationsHolding } from "../wallets/index.js";

const TICK_MS = 500;
/** The event types the chains produce. */
const CHAIN_EVENT_TYPES: readonly EventType[] = ["BALANCE_CONFIRMED_UPDATES", "BALANCE_FINALIZED_UPDATES", "SEND_TRANSACTION_STATUS_UPDATES"];
/** reportedStatus of a send made while nobody subscribed: settled, never reported. */
const UNWATCHED = "UNWATCHED";

type SendStatus = (typeof SEND_STATUSES)[number];
type BalanceOperation = (typeof BALANCE_OPERATIONS)[number];
const isSendStatus = (s: string): s is SendStatus => (SEND_STATUSES as readonly string[]).includes(s);
/** Reported statuses a send can still move on from. */
const NOT_FINAL: readonly SendStatus[] = ["BROADCASTING"];
/** The status a send is reported with first; a send first seen settled is reported with it too. */
const FIRST_STATUS: SendStatus = "BROADCASTING";
/** Which side of a transfer each address is on. */
const SIDES: readonly { side: "from" | "to"; operation: BalanceOperation }[] = [
  { side: "from", operation: "withdraw" },
  { side: "to", operation: "deposit" },
];

type Transfer = { from: string; to: string; amount: bigint; asset: AssetMeta };
type Landed = { caip2: string; txHash: string; block: { number: number; hash: string; timestamp: number }; transfers: Transfer[] };

export class ChainWatcher {
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  private again = false;
  private readonly pendingSolana = new Map<SolanaChain, string[]>();
  private closed = false;
  /** Per EVM chain, the last block mined while nobody subscribed: its transactions raise no balance events. */
  private readonly unwatchedThrough = new Map<Chain, bigint>();

  constructor(private readonly rt: Runtime) {
    const networks = rt.families.chains.networks;
    for (const c of networks.started()) this.attach(c);
    networks.onCreated((c) => this.attach(c));
    networks.onClose(() => this.close());
  }

  /** Runs a pass soon (coalesced with one already running). */
  poke(): void {
    if (this.closed) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch(() => undefined)
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.poke();
        }
      });
  }

  /** Waits for the pass under way, and one more (tests, the mine route). */
  async settle(): Promise<void> {
    this.poke();
    while (this.running) await this.running;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private attach(chain: Chain): void {
    if (chain.namespace === "eip155") {
      void import("./evm-history.js").then(({ evmHistory }) =>
        evmHistory(chain as EvmChain).subscribe((item) => {
          if (!item.success || item.blockNumber <= (this.unwatchedThrough.get(chain) ?? -1n)) return;
          void this.evmTransfers(chain as EvmChain, item).then((transfers) =>
            this.emitBalances({ caip2: chain.caip2, txHash: item.hash, block: { number: Number(item.blockNumber), hash: item.blockHash, timestamp: item.timestamp }, transfers }),
          );
        }),
      );
    } else {
      const engine = (chain as SolanaChain).localEngine;
      engine?.subscribe((e) => {
        if (e.type !== "landed" || e.err) return;
        const list = this.pendingSolana.get(chain as SolanaChain) ?? [];
        list.push(e.signature);
        this.pendingSolana.set(chain as SolanaChain, list);
        this.poke();
      });
    }
    if (!this.timer && !this.closed) {
      this.timer = setInterval(() => this.poke(), TICK_MS);
      this.timer.unref?.();
    }
  }

  private async pass(): Promise<void> {
    if (!this.rt.events || !this.rt.hooks.eventsWanted(this.rt, CHAIN_EVENT_TYPES)) return this.skipUnwatched();
    await this.settleSends();
    for (const chain of this.rt.families.chains.networks.started() ?? []) {
      if (chain.namespace === "eip155") {
        const { evmHistory } = await import("./evm-history.js");
        await evmHistory(chain as EvmChain).catchUp();
      }
    }
    for (const [chain, sigs] of this.pendingSolana) {
      this.pendingSolana.delete(chain);
      const { solanaTransaction } = await import("./solana-history.js");
      const decimals = new Map((chain.localEngine?.mints() ?? []).map((m) => [m.mint, m.decimals]));
      for (const sig of sigs) {
        const item = await solanaTransaction(chain, sig);
        if (!item || !item.success) continue;
        const transfers = item.transfers.map((t) => ({
          from: t.from,
          to: t.to,
          amount: t.amount,
          asset: t.mint ? { caip19: tokenCaip19(chain.caip2, t.mint), symbol: `SPL-${t.mint.slice(0, 4)}`, name: `SPL token ${t.mint}`, decimals: t.decimals ?? decimals.get(t.mint) ?? 0 } : nativeAsset(chain.caip2),
        }));
        this.emitBalances({ caip2: chain.caip2, txHash: item.signature, block: { number: Number(item.slot), hash: item.blockhash ?? "", timestamp: item.blockTime }, transfers });
      }
    }
  }

  /** Nobody would receive these events: settle what happened without reading it from the chains. */
  private async skipUnwatched(): Promise<void> {
    this.pendingSolana.clear();
    const unsettled = this.rt.store.sendTransactions.unsettled(NOT_FINAL);
    if (unsettled.length) this.rt.store.tx(() => unsettled.forEach((row) => this.rt.store.sendTransactions.update(row.id, { reportedStatus: UNWATCHED })));
    for (const chain of this.rt.families.chains.networks.started() ?? []) {
      if (chain.namespace === "eip155") this.unwatchedThrough.set(chain, BigInt(await (chain as EvmChain).rpc<string>("eth_blockNumber")));
    }
  }

  private async evmTransfers(chain: EvmChain, item: { transfers: { from: string; to: string; amount: bigint; token?: string }[] }): Promise<Transfer[]> {
    const { evmTokenMeta } = await import("./assets.js");
    const out: Transfer[] = [];
    for (const t of item.transfers) out.push({ from: t.from, to: t.to, amount: t.amount, asset: t.token ? await evmTokenMeta(chain, t.token) : nativeAsset(chain.caip2) });
    return out;
  }

  /** Emits the status each unsettled send has reached, if it is new. */
  private async settleSends(): Promise<void> {
    const { statusOfRow } = await import("./send-status.js");
    for (const row of this.rt.store.sendTransactions.unsettled(NOT_FINAL)) {
      let status: string;
      let record: Record<string, unknown>;
      try {
        ({ record } = await statusOfRow({ rt: this.rt }, row));
        status = String(record.txStatus);
      } catch {
        continue;
      }
      if (status === row.reportedStatus || !isSendStatus(status)) continue;
      const steps: SendStatus[] = !row.reportedStatus && status !== FIRST_STATUS ? [FIRST_STATUS, status] : [status];
      this.rt.store.tx(() => {
        for (const s of steps) {
          this.rt.events?.emit({
            type: "SEND_TRANSACTION_STATUS_UPDATES",
            orgId: row.orgId,
            msg: {
              sendTransactionStatusId: row.id,
              activityId: row.activityId,
              status: s,
              caip2: row.caip2,
              idempotencyKey: `${row.id}:${s}`,
              timestamp: Math.floor(this.rt.clock.now() / 1000),
              ...(s === "INCLUDED" ? { txHash: row.txHash } : {}),
              ...(s === "FAILED" && record.error ? { error: record.error as { message: string } } : {}),
            },
          });
        }
        this.rt.store.sendTransactions.update(row.id, { reportedStatus: status });
      });
    }
  }

  private emitBalances(landed: Landed): void {
    if (!this.rt.events || this.closed) return;
    // One event per address, asset and operation: sum the transaction's transfers.
    const sums = new Map<string, { address: string; operation: BalanceOperation; asset: AssetMeta; amount: bigint }>();
    for (const t of landed.transfers) {
      if (t.from === t.to) continue;
      for (const { side, operation } of SIDES) {
        const address = t[side];
        const key = `${address}|${t.asset.caip19}|${operation}`;
        const s = sums.get(key) ?? { address, operation, asset: t.asset, amount: 0n };
        s.amount += t.amount;
        sums.set(key, s);
      }
    }
    if (!sums.size) return;
    const { store } = this.rt;
    store.tx(() => {
      for (const s of sums.values()) {
        for (const orgId of organizationsHolding(this.rt, s.address)) {
          for (const type of ["BALANCE_CONFIRMED_UPDATES", "BALANCE_FINALIZED_UPDATES"] as const) {
            const event: BalanceEvent = {
              type,
              orgId,
              msg: {
                operation: s.operation,
                caip2: landed.caip2,
                txHash: landed.txHash,
                address: s.address,
                idempotencyKey: `${landed.caip2}:${landed.txHash}:${s.address}:${s.asset.caip19}:${s.operation}`,
                asset: { symbol: s.asset.symbol, name: s.asset.name, decimals: s.asset.decimals, caip19: s.asset.caip19, amount: s.amount.toString() },
                block: landed.block,
              },
            };
            this.rt.events.emit(event);
          }
        }
      }
    });
  }
}

/** The instance's watcher (`rt.families.chains.watcher`), started on first use (an instance that never touches a chain has none). */
export function chainWatcher(rt: Runtime): ChainWatcher | undefined {
  const chains = rt.families.chains;
  if (!chains) return undefined;
  return (chains.watcher ??= new ChainWatcher(rt));
}
