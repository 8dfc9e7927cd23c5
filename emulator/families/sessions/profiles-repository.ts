/** Session profiles: immutable, kept by the organization that created them (the parent). */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    sessionProfiles: SessionProfiles;
  }
}

export type SessionProfileRow = {
  id: string;
  orgId: string;
  name: string;
  /** A policy-language expression evaluated on every request made with the session. */
  scope: string;
  /** The longest session the profile allows, in seconds (decimal string); null: the login decides. */
  expirationSeconds: string | null;
  notes: string | null;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<SessionProfileRow>();

export class SessionProfiles {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): SessionProfileRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM session_profiles WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  forOrg(orgId: string): SessionProfileRow[] {
    return rows.readAll(prep(this.db, "SELECT * FROM session_profiles WHERE org_id = ? ORDER BY created_at, rowid").all(orgId));
  }

  insert(p: SessionProfileRow): void {
    insertRow(this.db, "session_profiles", rows, p);
  }
}
