/**
 * Earn (docs/earn.md): the wrappers an organization deployed (earn_deploy_wrapper), and every
 * Earn request the emulator sent a transaction for (deploy, deposit, withdraw, fee claim, rewards
 * claim), whose status the get_*_status queries read back from the chain by its hash. What a
 * wrapper holds, its fee and its deposits switch live on the chain, not here.
 */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    earnWrappers: EarnWrappers;
    earnRequests: EarnRequests;
  }
}

export type EarnWrapperRow = {
  /** The deploy request's id (deployRequestId). */
  id: string;
  /** The top-level organization the wrapper belongs to (its sub-organizations use it too). */
  orgId: string;
  caip2: string;
  wrapperAddress: string;
  vaultAddress: string;
  clientFeeBps: number;
  clientFeeWallet: string;
  createdAt: number;
};

export type EarnRequestKind = "deploy" | "deposit" | "withdraw" | "claim_fees" | "claim_rewards";

export type EarnRequestRow = {
  id: string;
  /** The organization whose activity sent it. */
  orgId: string;
  activityId: string;
  kind: EarnRequestKind;
  caip2: string;
  txHash: string;
  /** Paid by the emulated gas station (counts against its limits). */
  sponsored: boolean;
  /** The gas fee paid (wei, decimal) once known. */
  fee?: string | null;
  createdAt: number;
};

const wrapperRows = rowMapper<EarnWrapperRow>();
const requestRows = rowMapper<EarnRequestRow>({ bool: ["sponsored"] });

export class EarnWrappers {
  constructor(private readonly db: Db) {}

  insert(r: EarnWrapperRow): void {
    insertRow(this.db, "earn_wrappers", wrapperRows, r);
  }

  /** The organization's wrapper at `address` on any chain (addresses are unique to one deployment). */
  byAddress(orgId: string, address: string): EarnWrapperRow | undefined {
    return wrapperRows.read(prep(this.db, "SELECT * FROM earn_wrappers WHERE org_id = ? AND wrapper_address = ? COLLATE NOCASE").get(orgId, address));
  }

  byVault(orgId: string, caip2: string, vaultAddress: string): EarnWrapperRow | undefined {
    return wrapperRows.read(prep(this.db, "SELECT * FROM earn_wrappers WHERE org_id = ? AND caip2 = ? AND vault_address = ? COLLATE NOCASE").get(orgId, caip2, vaultAddress));
  }

  /** The organization's wrappers, oldest first (on one chain when `caip2` is given). */
  list(orgId: string, caip2?: string): EarnWrapperRow[] {
    return caip2
      ? wrapperRows.readAll(prep(this.db, "SELECT * FROM earn_wrappers WHERE org_id = ? AND caip2 = ? ORDER BY created_at, id").all(orgId, caip2))
      : wrapperRows.readAll(prep(this.db, "SELECT * FROM earn_wrappers WHERE org_id = ? ORDER BY created_at, id").all(orgId));
  }
}

export class EarnRequests {
  constructor(private readonly db: Db) {}

  insert(r: EarnRequestRow): void {
    insertRow(this.db, "earn_requests", requestRows, r);
  }

  /** A request of `kind` in the organization. */
  get(orgId: string, id: string, kind: EarnRequestKind): EarnRequestRow | undefined {
    return requestRows.read(prep(this.db, "SELECT * FROM earn_requests WHERE id = ? AND org_id = ? AND kind = ?").get(id, orgId, kind));
  }

  /** Sponsored requests of the given organizations since `since` (ms), oldest first. */
  sponsoredSince(orgIds: string[], since: number): EarnRequestRow[] {
    if (!orgIds.length) return [];
    const q = `SELECT * FROM earn_requests WHERE sponsored = 1 AND created_at >= ? AND org_id IN (${orgIds.map(() => "?").join(", ")}) ORDER BY created_at`;
    return requestRows.readAll(prep(this.db, q).all(since, ...orgIds));
  }

  setFee(id: string, fee: string): void {
    prep(this.db, "UPDATE earn_requests SET fee = ? WHERE id = ?").run(fee, id);
  }
}
