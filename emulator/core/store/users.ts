import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { countsByOrg, insertRow, rowMapper, updateRow } from "./rows.js";

export type UserRow = {
  id: string;
  orgId: string;
  name: string;
  email: string | null;
  phone: string | null;
  emailVerified: boolean;
  phoneVerified: boolean;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<UserRow>({ bool: ["emailVerified", "phoneVerified"] });

export class Users {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): UserRow | undefined {
    const r = prep(this.db, "SELECT * FROM users WHERE id = ? AND org_id = ?").get(id, orgId);
    return rows.read(r);
  }

  byId(id: string): UserRow | undefined {
    const r = prep(this.db, "SELECT * FROM users WHERE id = ?").get(id);
    return rows.read(r);
  }

  byName(orgId: string, name: string): UserRow | undefined {
    const r = prep(this.db, "SELECT * FROM users WHERE org_id = ? AND name = ?").get(orgId, name);
    return rows.read(r);
  }

  list(orgId: string): UserRow[] {
    return (prep(this.db, "SELECT * FROM users WHERE org_id = ? ORDER BY created_at, id").all(orgId) as unknown[]).map(rows.one);
  }

  count(orgId: string): number {
    return (prep(this.db, "SELECT COUNT(*) AS n FROM users WHERE org_id = ?").get(orgId) as { n: number }).n;
  }

  /** Users per organization, every organization at once (the control UI's tree). */
  countsByOrg(): Map<string, number> {
    return countsByOrg(this.db, "users");
  }

  insert(u: UserRow): void {
    insertRow(this.db, "users", rows, u);
  }

  update(id: string, patch: Partial<Pick<UserRow, "name" | "email" | "phone" | "emailVerified" | "phoneVerified">>, now: number): void {
    updateRow(this.db, "users", rows, id, { ...patch, updatedAt: now });
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM users WHERE id = ?").run(id);
  }
}
