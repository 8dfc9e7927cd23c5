import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper } from "./rows.js";
import { UNIQUE_RULES, uniquely } from "./unique.js";

export type OauthProviderRow = {
  id: string;
  orgId: string;
  userId: string;
  name: string;
  issuer: string;
  subject: string;
  audience: string;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<OauthProviderRow>();

/** OAuth (OIDC) identities registered on users: the token's {iss, sub, aud}, never the token. */
export class OauthProviders {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): OauthProviderRow | undefined {
    const r = prep(this.db, "SELECT * FROM oauth_providers WHERE id = ? AND org_id = ?").get(id, orgId);
    return rows.read(r);
  }

  forUser(userId: string): OauthProviderRow[] {
    return (prep(this.db, "SELECT * FROM oauth_providers WHERE user_id = ? ORDER BY created_at, id").all(userId) as unknown[]).map(rows.one);
  }

  forOrg(orgId: string): OauthProviderRow[] {
    return (prep(this.db, "SELECT * FROM oauth_providers WHERE org_id = ? ORDER BY created_at, id").all(orgId) as unknown[]).map(rows.one);
  }

  /** Every provider with this identity, in any organization. */
  byIdentity(issuer: string, subject: string, audience: string): OauthProviderRow[] {
    return (
      prep(this.db, "SELECT * FROM oauth_providers WHERE issuer = ? AND subject = ? AND audience = ? ORDER BY created_at").all(issuer, subject, audience) as unknown[]
    ).map(rows.one);
  }

  insert(p: OauthProviderRow): void {
    uniquely(UNIQUE_RULES.oauthProvider, UNIQUE_RULES.oauthProvider.error, () => insertRow(this.db, "oauth_providers", rows, p));
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM oauth_providers WHERE id = ?").run(id);
  }
}
