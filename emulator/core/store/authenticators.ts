import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper } from "./rows.js";
import { UNIQUE_RULES, uniquely } from "./unique.js";

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

const rows = rowMapper<AuthenticatorRow>({ json: ["transports"] });

export class Authenticators {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): AuthenticatorRow | undefined {
    const r = prep(this.db, "SELECT * FROM authenticators WHERE id = ? AND org_id = ?").get(id, orgId);
    return rows.read(r);
  }

  forUser(userId: string): AuthenticatorRow[] {
    return (prep(this.db, "SELECT * FROM authenticators WHERE user_id = ? ORDER BY created_at, id").all(userId) as unknown[]).map(rows.one);
  }

  byCredentialId(credentialId: string): AuthenticatorRow[] {
    return (prep(this.db, "SELECT * FROM authenticators WHERE credential_id = ? ORDER BY created_at").all(credentialId) as unknown[]).map(rows.one);
  }

  insert(a: AuthenticatorRow): void {
    uniquely(UNIQUE_RULES.authenticator, () => UNIQUE_RULES.authenticator.error(a.credentialId), () => insertRow(this.db, "authenticators", rows, a));
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM authenticators WHERE id = ?").run(id);
  }
}
