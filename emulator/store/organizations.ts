import type { Db } from "./db.js";
import { prep } from "./statements.js";

export type Feature = { name: string; value: string };

export type OrganizationRow = {
  id: string;
  name: string;
  parentId: string | null;
  rootQuorumThreshold: number;
  rootUserIds: string[];
  features: Feature[];
  createdAt: number;
  updatedAt: number;
};

type Raw = {
  id: string;
  name: string;
  parent_id: string | null;
  root_quorum_threshold: number;
  root_user_ids: string;
  features: string;
  created_at: number;
  updated_at: number;
};

const fromRaw = (r: Raw): OrganizationRow => ({
  id: r.id,
  name: r.name,
  parentId: r.parent_id,
  rootQuorumThreshold: r.root_quorum_threshold,
  rootUserIds: JSON.parse(r.root_user_ids),
  features: JSON.parse(r.features),
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

export class Organizations {
  constructor(private readonly db: Db) {}

  get(id: string): OrganizationRow | undefined {
    const r = prep(this.db, "SELECT * FROM organizations WHERE id = ?").get(id) as Raw | undefined;
    return r && fromRaw(r);
  }

  insert(o: OrganizationRow): void {
    prep(this.db, 
        `INSERT INTO organizations (id, name, parent_id, root_quorum_threshold, root_user_ids, features, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(o.id, o.name, o.parentId, o.rootQuorumThreshold, JSON.stringify(o.rootUserIds), JSON.stringify(o.features), o.createdAt, o.updatedAt);
  }

  update(id: string, patch: Partial<Pick<OrganizationRow, "name" | "rootQuorumThreshold" | "rootUserIds" | "features">>, now: number): void {
    const cur = this.get(id);
    if (!cur) return;
    const next = { ...cur, ...patch };
    prep(this.db, "UPDATE organizations SET name = ?, root_quorum_threshold = ?, root_user_ids = ?, features = ?, updated_at = ? WHERE id = ?")
      .run(next.name, next.rootQuorumThreshold, JSON.stringify(next.rootUserIds), JSON.stringify(next.features), now, id);
  }

  children(parentId: string): OrganizationRow[] {
    return (prep(this.db, "SELECT * FROM organizations WHERE parent_id = ? ORDER BY created_at, id").all(parentId) as Raw[]).map(fromRaw);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM organizations WHERE id = ?").run(id);
  }
}
