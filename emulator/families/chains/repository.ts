import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper, updateRow } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    sendTransactions: SendTransactions;
    gasUsageConfigs: GasUsageConfigs;
  }
}

/**
 * A transaction the emulator broadcast for eth_send_transaction / sol_send_transaction /
 * eth_undelegate_7702 / eth_send_raw_transaction: where it went and its hash (EVM) or
 * signature (Solana). Its fate is read from the chain each time, unless the chain refused it
 * outright (`error`, e.g. a failed Solana preflight).
 */
export type SendTransactionRow = {
  id: string;
  orgId: string;
  activityId: string;
  caip2: string;
  namespace: "eip155" | "solana";
  txHash: string;
  fromAddress: string;
  createdAt: number;
  /** Paid by the emulated gas station. */
  sponsored?: boolean;
  /** `send` (eth/sol_send_transaction), `undelegate` (eth_undelegate_7702), `raw` (eth_send_raw_transaction), `swap` (execute_swap). */
  kind?: "send" | "undelegate" | "raw" | "swap";
  /** A refusal recorded when it was broadcast: the status is FAILED with this. */
  error?: Record<string, unknown> | null;
  /** The last status reported to the event bus (BROADCASTING / INCLUDED / FAILED). */
  reportedStatus?: string | null;
  /** The fee paid (wei / lamports, decimal) once included. */
  fee?: string | null;
};

const rows = rowMapper<SendTransactionRow>({ json: ["error"], bool: ["sponsored"] });

export class SendTransactions {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): SendTransactionRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM send_transactions WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  insert(r: SendTransactionRow): void {
    insertRow(this.db, "send_transactions", rows, r);
  }

  /** The record of a transaction the emulator sent, by chain and hash (for history metadata). */
  byHash(orgId: string, caip2: string, txHash: string): SendTransactionRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM send_transactions WHERE caip2 = ? AND tx_hash = ? AND org_id = ?").get(caip2, txHash, orgId));
  }

  /** Sponsored sends of the given organizations since `since` (ms), oldest first. */
  sponsoredSince(orgIds: string[], since: number): SendTransactionRow[] {
    if (!orgIds.length) return [];
    const q = `SELECT * FROM send_transactions WHERE sponsored = 1 AND created_at >= ? AND org_id IN (${orgIds.map(() => "?").join(", ")}) ORDER BY created_at`;
    return rows.readAll(prep(this.db, q).all(since, ...orgIds));
  }

  /** Sends never reported, or last reported with one of the `notFinal` statuses (the status watcher's, watch.ts). */
  unsettled(notFinal: readonly string[]): SendTransactionRow[] {
    return rows.readAll(prep(this.db, "SELECT * FROM send_transactions WHERE reported_status IS NULL OR reported_status IN (SELECT value FROM json_each(?)) ORDER BY created_at").all(JSON.stringify(notFinal)));
  }

  update(id: string, patch: Partial<Pick<SendTransactionRow, "reportedStatus" | "fee">>): void {
    updateRow(this.db, "send_transactions", rows, id, patch);
  }
}

/** The gas station's sponsorship limits of one organization (upsert_gas_usage_config). */
export type GasUsageConfigRow = {
  orgId: string;
  id: string;
  orgWindowLimitUsd: string;
  subOrgWindowLimitUsd: string;
  windowDurationMinutes: number;
  enabled: boolean;
  createdAt: number;
  updatedAt: number;
};

const configRows = rowMapper<GasUsageConfigRow>({ bool: ["enabled"] });

export class GasUsageConfigs {
  constructor(private readonly db: Db) {}

  get(orgId: string): GasUsageConfigRow | undefined {
    return configRows.read(prep(this.db, "SELECT * FROM gas_usage_configs WHERE org_id = ?").get(orgId));
  }

  upsert(r: GasUsageConfigRow): void {
    if (this.get(r.orgId)) updateRow(this.db, "gas_usage_configs", configRows, r.orgId, { ...r, createdAt: undefined }, "org_id");
    else insertRow(this.db, "gas_usage_configs", configRows, r);
  }
}
