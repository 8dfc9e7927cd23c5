import type { Db } from "./db.js";
import { prep } from "./statements.js";

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

type Raw = {
  id: string;
  org_id: string;
  user_id: string;
  name: string;
  public_key: string;
  credential_type: string;
  expiration_seconds: string | null;
  expires_at: number | null;
  session_profile_id: string | null;
  created_at: number;
  updated_at: number;
};

const fromRaw = (r: Raw): ApiKeyRow => ({
  id: r.id,
  orgId: r.org_id,
  userId: r.user_id,
  name: r.name,
  publicKey: r.public_key,
  credentialType: r.credential_type,
  expirationSeconds: r.expiration_seconds,
  expiresAt: r.expires_at,
  sessionProfileId: r.session_profile_id,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class ApiKeys {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): ApiKeyRow | undefined {
    const r = prep(this.db, "SELECT * FROM api_keys WHERE id = ? AND org_id = ?").get(id, orgId) as Raw | undefined;
    return r && fromRaw(r);
  }

  /** Every key with this public key in one organization (normally zero or one). */
  byPublicKey(orgId: string, publicKey: string): ApiKeyRow[] {
    return (prep(this.db, "SELECT * FROM api_keys WHERE org_id = ? AND public_key = ? ORDER BY created_at").all(orgId, publicKey) as Raw[]).map(fromRaw);
  }

  /** Every key with this public key in any organization (for resolving sub-org callers). */
  byPublicKeyAnywhere(publicKey: string): ApiKeyRow[] {
    return (prep(this.db, "SELECT * FROM api_keys WHERE public_key = ? ORDER BY created_at").all(publicKey) as Raw[]).map(fromRaw);
  }

  forUser(userId: string): ApiKeyRow[] {
    return (prep(this.db, "SELECT * FROM api_keys WHERE user_id = ? ORDER BY created_at, id").all(userId) as Raw[]).map(fromRaw);
  }

  forOrg(orgId: string): ApiKeyRow[] {
    return (prep(this.db, "SELECT * FROM api_keys WHERE org_id = ? ORDER BY created_at, id").all(orgId) as Raw[]).map(fromRaw);
  }

  insert(k: ApiKeyRow): void {
    prep(this.db, 
        `INSERT INTO api_keys (id, org_id, user_id, name, public_key, credential_type, expiration_seconds, expires_at, session_profile_id, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(k.id, k.orgId, k.userId, k.name, k.publicKey, k.credentialType, k.expirationSeconds, k.expiresAt, k.sessionProfileId, k.createdAt, k.updatedAt);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM api_keys WHERE id = ?").run(id);
  }
}
