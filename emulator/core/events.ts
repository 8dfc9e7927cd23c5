/**
 * The emulator's event bus: one per instance (`rt.events`). Code that changes something a
 * subscriber may care about emits a typed event; listeners (the webhook outbox, ...) react.
 *
 * `emit` is synchronous and runs every listener before it returns, so an event emitted inside
 * a store transaction (`rt.store.tx`) has its listeners' writes in that same transaction: if
 * the transaction rolls back, so do they; a listener may also defer work until it has
 * committed (store/after-commit.ts). The webhook outbox does one or the other (file-backed or
 * in-memory state): an activity that is never committed never notifies anyone. A listener
 * that throws is reported and skipped; it never fails the emitter.
 *
 * Event types are the webhook event types of the service (what an endpoint subscribes to),
 * plus CLOCK_MOVED, an internal notice that the emulated clock jumped.
 */
import type { ActivityRow } from "./store/activities.js";

/** What a balance event reports, and the statuses a sent transaction goes through (webhook filters check against them). */
export const BALANCE_OPERATIONS = ["deposit", "withdraw"] as const;
export const SEND_STATUSES = ["BROADCASTING", "INCLUDED", "FAILED"] as const;

/** An activity was recorded with a new status (COMPLETED, FAILED, REJECTED, CONSENSUS_NEEDED, ...). */
export type ActivityUpdateEvent = {
  type: "ACTIVITY_UPDATES";
  /** The organization the activity happened in. */
  orgId: string;
  /** The activity as recorded with its new status. */
  activity: ActivityRow;
  /** The policy evaluations the decision recorded with it (none for a decision without policies, or a rejection); carried so that listeners (coverage) need not read them back. */
  evaluations?: readonly { policyId: string; outcome: string }[];
};

/** A deposit to or withdrawal from a wallet account address was confirmed or finalized on chain. */
export type BalanceEvent = {
  type: "BALANCE_CONFIRMED_UPDATES" | "BALANCE_FINALIZED_UPDATES";
  /** The organization (or sub-organization) owning the address. */
  orgId: string;
  msg: {
    operation: (typeof BALANCE_OPERATIONS)[number];
    caip2: string;
    txHash: string;
    address: string;
    idempotencyKey: string;
    asset: { symbol: string; name: string; decimals: number; caip19: string; amount: string };
    block: { number: number; hash: string; timestamp: number };
  };
};

/** A transaction sent with eth_send_transaction / sol_send_transaction changed status. */
export type SendTransactionStatusEvent = {
  type: "SEND_TRANSACTION_STATUS_UPDATES";
  /** The organization (or sub-organization) that sent it. */
  orgId: string;
  msg: {
    sendTransactionStatusId: string;
    activityId: string;
    status: (typeof SEND_STATUSES)[number];
    caip2: string;
    idempotencyKey: string;
    /** Unix seconds. */
    timestamp: number;
    /** INCLUDED only. */
    txHash?: string;
    error?: { message: string; eth?: { revertChain: unknown[] }; solana?: unknown };
  };
};

/** The emulated clock was set or advanced (control API): timers that follow it re-check. */
export type ClockMovedEvent = { type: "CLOCK_MOVED" };

export type EmulatorEvent = ActivityUpdateEvent | BalanceEvent | SendTransactionStatusEvent | ClockMovedEvent;
export type EventType = EmulatorEvent["type"];
export type EventListener = (event: EmulatorEvent) => void;

export class EventBus {
  private readonly listeners: EventListener[] = [];

  constructor(private readonly report: (message: string) => void = (m) => console.error(m)) {}

  /** Adds a listener; returns the function that removes it. */
  on(listener: EventListener): () => void {
    this.listeners.push(listener);
    return () => {
      const i = this.listeners.indexOf(listener);
      if (i >= 0) this.listeners.splice(i, 1);
    };
  }

  /** Runs every listener now, in the order they were added. */
  emit(event: EmulatorEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (e) {
        this.report(`event listener failed on ${event.type}: ${(e as Error)?.message ?? String(e)}`);
      }
    }
  }
}
