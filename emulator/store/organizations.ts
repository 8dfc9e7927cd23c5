import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper, updateRow } from "./rows.js";

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

const rows = rowMapper<OrganizationRow>({ json: ["rootUserIds", "features"] });

export class Organizations {
  constructor(private readonly db: Db) {}

  get(id: string): OrganizationRow | undefined {
    const r = prep(this.db, "SELECT * FROM organizations WHERE id = ?").get(id);
    return rows.read(r);
  }

  insert(o: OrganizationRow): void {
    insertRow(this.db, "organizations", rows, o);
  }

  update(id: string, patch: Partial<Pick<OrganizationRow, "name" | "rootQuorumThreshold" | "rootUserIds" | "features">>, now: number): void {
    updateRow(this.db, "organizations", rows, id, { ...patch, updatedAt: now });
  }

  children(parentId: string): OrganizationRow[] {
    return (prep(this.db, "SELECT * FROM organizations WHERE parent_id = ? ORDER BY created_at, id").all(parentId) as unknown[]).map(rows.one);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM organizations WHERE id = ?").run(id);
  }
}
