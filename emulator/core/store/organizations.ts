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

const ORG_ROUTING = `SELECT id, parent_id AS parentId,
  (SELECT json_extract(f.value, '$.value') FROM json_each(organizations.features) AS f WHERE json_extract(f.value, '$.name') = ? LIMIT 1) AS legacy
  FROM organizations WHERE id = ?`;

export class Organizations {
  constructor(private readonly db: Db) {}

  /**
   * What webhook routing needs of an organization, read in one statement on every event (not the
   * whole row): its parent, and the value of the feature `feature` (the legacy webhook URL) if set.
   */
  routing(id: string, feature: string): { id: string; parentId: string | null; legacy: string | null } | undefined {
    return prep(this.db, ORG_ROUTING).get(feature, id) as { id: string; parentId: string | null; legacy: string | null } | undefined;
  }

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

  /** Every organization, oldest first (the control UI's tree). */
  all(): OrganizationRow[] {
    return (prep(this.db, "SELECT * FROM organizations ORDER BY created_at, id").all() as unknown[]).map(rows.one);
  }

  children(parentId: string): OrganizationRow[] {
    return (prep(this.db, "SELECT * FROM organizations WHERE parent_id = ? ORDER BY created_at, id").all(parentId) as unknown[]).map(rows.one);
  }

  /**
   * Up to `limit` live (not deleted) sub-organizations of a parent in creation order
   * (created_at, id), strictly after (`asc`) or before (`desc`, then newest first) the
   * position `from`; from the start or the end when `from` is absent. A keyset page: the
   * index on (parent_id, created_at, id) is walked from the position, nothing before it is read.
   */
  childrenFrom(parentId: string, from: { createdAt: number; id: string } | undefined, direction: "asc" | "desc", limit: number): OrganizationRow[] {
    const op = direction === "asc" ? ">" : "<";
    const order = direction === "asc" ? "ASC" : "DESC";
    const where = from ? `AND (o.created_at, o.id) ${op} (?, ?)` : "";
    const sql = `SELECT o.* FROM organizations o LEFT JOIN sub_organizations s ON s.org_id = o.id WHERE o.parent_id = ? ${where} AND s.deleted_at IS NULL ORDER BY o.created_at ${order}, o.id ${order} LIMIT ?`;
    const args = from ? [parentId, from.createdAt, from.id, limit] : [parentId, limit];
    return (prep(this.db, sql).all(...args) as unknown[]).map(rows.one);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM organizations WHERE id = ?").run(id);
  }
}
