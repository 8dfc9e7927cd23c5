import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { countsByOrg, insertRow, rowMapper } from "../../core/store/rows.js";
import { UNIQUE_RULES, uniquely } from "../../core/store/unique.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    privateKeys: PrivateKeys;
  }
}

export type PrivateKeyAddress = { format: string; address: string };

export type PrivateKeyRow = {
  id: string;
  orgId: string;
  name: string;
  curve: string;
  privateKeySealed: string;
  publicKey: string;
  addresses: PrivateKeyAddress[];
  exported: boolean;
  imported: boolean;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<PrivateKeyRow>({ json: ["addresses"], bool: ["exported", "imported"] });

export class PrivateKeys {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): PrivateKeyRow | undefined {
    const r = prep(this.db, "SELECT * FROM private_keys WHERE id = ? AND org_id = ?").get(id, orgId);
    return rows.read(r);
  }

  byAddress(orgId: string, address: string): PrivateKeyRow | undefined {
    const r = prep(this.db, "SELECT k.* FROM private_key_addresses a JOIN private_keys k ON k.id = a.private_key_id WHERE a.org_id = ? AND a.address = ? LIMIT 1")
      .get(orgId, address);
    return rows.read(r);
  }

  byName(orgId: string, name: string): PrivateKeyRow | undefined {
    const r = prep(this.db, "SELECT * FROM private_keys WHERE org_id = ? AND name = ?").get(orgId, name);
    return rows.read(r);
  }

  list(orgId: string): PrivateKeyRow[] {
    return (prep(this.db, "SELECT * FROM private_keys WHERE org_id = ? ORDER BY created_at, rowid").all(orgId) as unknown[]).map(rows.one);
  }

  count(orgId: string): number {
    return (prep(this.db, "SELECT COUNT(*) AS n FROM private_keys WHERE org_id = ?").get(orgId) as { n: number }).n;
  }

  /** Private keys per organization, every organization at once. */
  countsByOrg(): Map<string, number> {
    return countsByOrg(this.db, "private_keys");
  }

  insert(k: PrivateKeyRow): void {
    uniquely(UNIQUE_RULES.privateKey, () => UNIQUE_RULES.privateKey.error(k.name), () => insertRow(this.db, "private_keys", rows, k));
    const add = prep(this.db, "INSERT INTO private_key_addresses (private_key_id, org_id, address) VALUES (?, ?, ?)");
    for (const a of k.addresses) add.run(k.id, k.orgId, a.address);
  }

  markExported(id: string, now: number): void {
    prep(this.db, "UPDATE private_keys SET exported = 1, updated_at = ? WHERE id = ?").run(now, id);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM private_keys WHERE id = ?").run(id);
  }
}
