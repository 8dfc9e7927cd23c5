import type { Db } from "./db.js";
import { prep } from "./statements.js";

export type AuthenticatorRow = {
  id: string;
  orgId: string;
  userId: string;
  name: string;
  credentialId: string;
  publicKey: string;
  aaguid: string;
  attestationType: string;
  transports: string[];
  createdAt: number;
  updatedAt: number;
};

type Raw = {
  id: string;
  org_id: string;
  user_id: string;
  name: string;
  credential_id: string;
  public_key: string;
  aaguid: string;
  attestation_type: string;
  transports: string;
  created_at: number;
  updated_at: number;
};

const fromRaw = (r: Raw): AuthenticatorRow => ({
  id: r.id,
  orgId: r.org_id,
  userId: r.user_id,
  name: r.name,
  credentialId: r.credential_id,
  publicKey: r.public_key,
  aaguid: r.aaguid,
  attestationType: r.attestation_type,
  transports: JSON.parse(r.transports),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class Authenticators {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): AuthenticatorRow | undefined {
    const r = prep(this.db, "SELECT * FROM authenticators WHERE id = ? AND org_id = ?").get(id, orgId) as Raw | undefined;
    return r && fromRaw(r);
  }

  forUser(userId: string): AuthenticatorRow[] {
    return (prep(this.db, "SELECT * FROM authenticators WHERE user_id = ? ORDER BY created_at, id").all(userId) as Raw[]).map(fromRaw);
  }

  byCredentialId(credentialId: string): AuthenticatorRow[] {
    return (prep(this.db, "SELECT * FROM authenticators WHERE credential_id = ? ORDER BY created_at").all(credentialId) as Raw[]).map(fromRaw);
  }

  insert(a: AuthenticatorRow): void {
    prep(this.db, 
        `INSERT INTO authenticators (id, org_id, user_id, name, credential_id, public_key, aaguid, attestation_type, transports, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(a.id, a.orgId, a.userId, a.name, a.credentialId, a.publicKey, a.aaguid, a.attestationType, JSON.stringify(a.transports), a.createdAt, a.updatedAt);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM authenticators WHERE id = ?").run(id);
  }
}
