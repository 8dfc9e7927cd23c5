import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    oauth2: Oauth2;
  }
}

export type Oauth2CredentialRow = {
  id: string;
  orgId: string;
  provider: string;
  clientId: string;
  /** Ciphertext as the client sent it (encrypted to the service's key); never opened here. */
  encryptedClientSecret: string;
  createdAt: number;
  updatedAt: number;
};

/** An authorization code issued by the emulated X / Discord provider. */
export type Oauth2CodeRow = {
  code: string;
  provider: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  subject: string;
  username: string | null;
  expiresAt: number;
  usedAt: number | null;
};

const codes = rowMapper<Oauth2CodeRow>();

const cred = rowMapper<Oauth2CredentialRow>();

export class Oauth2 {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): Oauth2CredentialRow | undefined {
    const r = prep(this.db, "SELECT * FROM oauth2_credentials WHERE id = ? AND org_id = ?").get(id, orgId);
    return cred.read(r);
  }

  list(orgId: string): Oauth2CredentialRow[] {
    return (prep(this.db, "SELECT * FROM oauth2_credentials WHERE org_id = ? ORDER BY created_at, rowid").all(orgId) as unknown[]).map(cred.one);
  }

  upsert(c: Oauth2CredentialRow): void {
    prep(
      this.db,
      `INSERT INTO oauth2_credentials (id, org_id, provider, client_id, encrypted_client_secret, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT(id) DO UPDATE SET provider = excluded.provider, client_id = excluded.client_id, encrypted_client_secret = excluded.encrypted_client_secret, updated_at = excluded.updated_at`,
    ).run(c.id, c.orgId, c.provider, c.clientId, c.encryptedClientSecret, c.createdAt, c.updatedAt);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM oauth2_credentials WHERE id = ?").run(id);
  }

  insertCode(c: Oauth2CodeRow): void {
    insertRow(this.db, "oauth2_codes", codes, c);
  }

  code(code: string): Oauth2CodeRow | undefined {
    return codes.read(prep(this.db, "SELECT * FROM oauth2_codes WHERE code = ?").get(code));
  }

  useCode(code: string, now: number): void {
    prep(this.db, "UPDATE oauth2_codes SET used_at = ? WHERE code = ?").run(now, code);
  }
}
