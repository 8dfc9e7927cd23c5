import type { Db } from "./db.js";
import { prep } from "./statements.js";

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

type Raw = {
  id: string;
  org_id: string;
  name: string;
  email: string | null;
  phone: string | null;
  email_verified: number;
  phone_verified: number;
  created_at: number;
  updated_at: number;
};

const fromRaw = (r: Raw): UserRow => ({
  id: r.id,
  orgId: r.org_id,
  name: r.name,
  email: r.email,
  phone: r.phone,
  emailVerified: r.email_verified === 1,
  phoneVerified: r.phone_verified === 1,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class Users {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): UserRow | undefined {
    const r = prep(this.db, "SELECT * FROM users WHERE id = ? AND org_id = ?").get(id, orgId) as Raw | undefined;
    return r && fromRaw(r);
  }

  byId(id: string): UserRow | undefined {
    const r = prep(this.db, "SELECT * FROM users WHERE id = ?").get(id) as Raw | undefined;
    return r && fromRaw(r);
  }

  byName(orgId: string, name: string): UserRow | undefined {
    const r = prep(this.db, "SELECT * FROM users WHERE org_id = ? AND name = ?").get(orgId, name) as Raw | undefined;
    return r && fromRaw(r);
  }

  list(orgId: string): UserRow[] {
    return (prep(this.db, "SELECT * FROM users WHERE org_id = ? ORDER BY created_at, id").all(orgId) as Raw[]).map(fromRaw);
  }

  count(orgId: string): number {
    return (prep(this.db, "SELECT COUNT(*) AS n FROM users WHERE org_id = ?").get(orgId) as { n: number }).n;
  }

  insert(u: UserRow): void {
    prep(this.db, 
        `INSERT INTO users (id, org_id, name, email, phone, email_verified, phone_verified, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(u.id, u.orgId, u.name, u.email, u.phone, u.emailVerified ? 1 : 0, u.phoneVerified ? 1 : 0, u.createdAt, u.updatedAt);
  }

  update(id: string, patch: Partial<Pick<UserRow, "name" | "email" | "phone" | "emailVerified" | "phoneVerified">>, now: number): void {
    const cur = this.byId(id);
    if (!cur) return;
    const n = { ...cur, ...patch };
    prep(this.db, "UPDATE users SET name = ?, email = ?, phone = ?, email_verified = ?, phone_verified = ?, updated_at = ? WHERE id = ?")
      .run(n.name, n.email, n.phone, n.emailVerified ? 1 : 0, n.phoneVerified ? 1 : 0, now, id);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM users WHERE id = ?").run(id);
  }
}
