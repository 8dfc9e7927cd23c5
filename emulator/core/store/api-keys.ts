import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper } from "./rows.js";
import { UNIQUE_RULES, uniquely } from "./unique.js";

export type ApiKeyRow = {
  id: string;
  orgId: string;
  userId: string;
  name: string;
  publicKey: string;
  credentialType: string;
  expirationSeconds: string | null;
  expiresAt: number | null;
  sessionProfileId: string | null;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<ApiKeyRow>();

export class ApiKeys {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): ApiKeyRow | undefined {
    const r = prep(this.db, "SELECT * FROM api_keys WHERE id = ? AND org_id = ?").get(id, orgId);
    return rows.read(r);
  }

  /** Every key with this public key in one organization (normally zero or one). */
  byPublicKey(orgId: string, publicKey: string): ApiKeyRow[] {
    return (prep(this.db, "SELECT * FROM api_keys WHERE org_id = ? AND public_key = ? ORDER BY created_at").all(orgId, publicKey) as unknown[]).map(rows.one);
  }

  /** Every key with this public key in any organization (for resolving sub-org callers). */
  byPublicKeyAnywhere(publicKey: string): ApiKeyRow[] {
    return (prep(this.db, "SELECT * FROM api_keys WHERE public_key = ? ORDER BY created_at").all(publicKey) as unknown[]).map(rows.one);
  }

  forUser(userId: string): ApiKeyRow[] {
    return (prep(this.db, "SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at, id").all(userId) as unknown[]).map(rows.one);
  }

  forOrg(orgId: string): ApiKeyRow[] {
    return (prep(this.db, "SELECT * FROM api_keys WHERE org_id = ? ORDER BY created_at, id").all(orgId) as unknown[]).map(rows.one);
  }

  insert(k: ApiKeyRow): void {
    uniquely(UNIQUE_RULES.apiKey, () => UNIQUE_RULES.apiKey.error(k.publicKey), () => insertRow(this.db, "api_keys", rows, k));
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM api_keys WHERE id = ?").run(id);
  }
}
