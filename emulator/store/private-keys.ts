import type { Db } from "./db.js";
import { prep } from "./statements.js";

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

type Raw = {
  id: string;
  org_id: string;
  name: string;
  curve: string;
  private_key_sealed: string;
  public_key: string;
  addresses: string;
  exported: number;
  imported: number;
  created_at: number;
  updated_at: number;
};

const fromRaw = (r: Raw): PrivateKeyRow => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  curve: r.curve,
  privateKeySealed: r.private_key_sealed,
  publicKey: r.public_key,
  addresses: JSON.parse(r.addresses),
  exported: r.exported === 1,
  imported: r.imported === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class PrivateKeys {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): PrivateKeyRow | undefined {
    const r = prep(this.db, "SELECT * FROM private_keys WHERE id = ? AND org_id = ?").get(id, orgId) as Raw | undefined;
    return r && fromRaw(r);
  }

  byAddress(orgId: string, address: string): PrivateKeyRow | undefined {
    const r = prep(this.db, "SELECT k.* FROM private_key_addresses a JOIN private_keys k ON k.id = a.private_key_id WHERE a.org_id = ? AND a.address = ? LIMIT 1")
      .get(orgId, address) as Raw | undefined;
    return r && fromRaw(r);
  }

  byName(orgId: string, name: string): PrivateKeyRow | undefined {
    const r = prep(this.db, "SELECT * FROM private_keys WHERE org_id = ? AND name = ?").get(orgId, name) as Raw | undefined;
    return r && fromRaw(r);
  }

  list(orgId: string): PrivateKeyRow[] {
    return (prep(this.db, "SELECT * FROM private_keys WHERE org_id = ? ORDER BY created_at, rowid").all(orgId) as Raw[]).map(fromRaw);
  }

  count(orgId: string): number {
    return (prep(this.db, "SELECT COUNT(*) AS n FROM private_keys WHERE org_id = ?").get(orgId) as { n: number }).n;
  }

  insert(k: PrivateKeyRow): void {
    prep(this.db, 
        `INSERT INTO private_keys (id, org_id, name, curve, private_key_sealed, public_key, addresses, exported, imported, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(k.id, k.orgId, k.name, k.curve, k.privateKeySealed, k.publicKey, JSON.stringify(k.addresses), k.exported ? 1 : 0, k.imported ? 1 : 0, k.createdAt, k.updatedAt);
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
