/** An organization's swap configuration (upsert_swap_config): fee receiver and fee rates, one row per organization. */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    swapConfigs: SwapConfigs;
  }
}

export type SwapConfigRow = {
  orgId: string;
  feeReceiverWalletAddress: string | null;
  /** Basis points, decimal strings as the API carries them. */
  feeBps: string | null;
  stableFeeBps: string | null;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<SwapConfigRow>();

export class SwapConfigs {
  constructor(private readonly db: Db) {}

  get(orgId: string): SwapConfigRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM swap_configs WHERE org_id = ?").get(orgId));
  }

  /** Writes the whole row (the caller merges an upsert with what was there). */
  put(c: SwapConfigRow): void {
    prep(
      this.db,
      `INSERT INTO swap_configs (org_id, fee_receiver_wallet_address, fee_bps, stable_fee_bps, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (org_id) DO UPDATE SET fee_receiver_wallet_address = excluded.fee_receiver_wallet_address, fee_bps = excluded.fee_bps,
         stable_fee_bps = excluded.stable_fee_bps, updated_at = excluded.updated_at`,
    ).run(c.orgId, c.feeReceiverWalletAddress, c.feeBps, c.stableFeeBps, c.createdAt, c.updatedAt);
  }
}
