import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper } from "./rows.js";

/**
 * A transaction the emulator broadcast for eth_send_transaction / sol_send_transaction: where
 * it went and its hash (EVM) or signature (Solana). Its fate is read from the chain each time.
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
};

const rows = rowMapper<SendTransactionRow>();

export class SendTransactions {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): SendTransactionRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM send_transactions WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  insert(r: SendTransactionRow): void {
    insertRow(this.db, "send_transactions", rows, r);
  }
}
