/**
 * IP allowlists: at most one per organization (`publicKey` "") and one per API key of it. An
 * organization-level list carries `enabled`; a key-level list is enforced whenever it exists.
 */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    ipAllowlists: IpAllowlists;
  }
}

export type IpAllowlistRule = { cidr: string; label: string; createdAt: number };

export type IpAllowlistRow = {
  orgId: string;
  /** "" for the organization-level list, else the API key's public key. */
  publicKey: string;
  /** Organization level only (null for a key-level list). */
  enabled: boolean | null;
  onEvaluationError: "ALLOW" | "DENY";
  rules: IpAllowlistRule[];
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<IpAllowlistRow>({ json: ["rules"], bool: ["enabled"] });

export const ORGANIZATION_LEVEL = "";

export class IpAllowlists {
  constructor(private readonly db: Db) {}

  get(orgId: string, publicKey: string = ORGANIZATION_LEVEL): IpAllowlistRow | undefined {
    const row = rows.read(prep(this.db, "SELECT * FROM ip_allowlists WHERE org_id = ? AND public_key = ?").get(orgId, publicKey));
    if (row && publicKey !== ORGANIZATION_LEVEL) row.enabled = null;
    return row;
  }

  /** Replaces the list of that scope (rules and settings), keeping its creation time. */
  put(row: IpAllowlistRow): void {
    const existing = this.get(row.orgId, row.publicKey);
    this.delete(row.orgId, row.publicKey);
    insertRow(this.db, "ip_allowlists", rows, { ...row, createdAt: existing?.createdAt ?? row.createdAt, enabled: row.publicKey === ORGANIZATION_LEVEL ? row.enabled : null });
  }

  /** True when a list of that scope existed. */
  delete(orgId: string, publicKey: string = ORGANIZATION_LEVEL): boolean {
    return prep(this.db, "DELETE FROM ip_allowlists WHERE org_id = ? AND public_key = ?").run(orgId, publicKey).changes > 0;
  }
}
