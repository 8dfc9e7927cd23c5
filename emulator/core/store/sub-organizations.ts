import type { Db } from "./db.js";
import { prep } from "./statements.js";

/** Per-sub-organization auth settings chosen at creation. */
export type SubOrgSettings = { disableEmailRecovery?: boolean; disableEmailAuth?: boolean; disableSmsAuth?: boolean; disableOtpEmailAuth?: boolean };

/**
 * What a sub-organization has beyond its organization row: creation settings, and a tombstone
 * once deleted (the row stays so that its activity history keeps its organization).
 */
export class SubOrganizations {
  constructor(private readonly db: Db) {}

  create(orgId: string, settings: SubOrgSettings): void {
    prep(this.db, "INSERT INTO sub_organizations (org_id, settings) VALUES (?, ?)").run(orgId, JSON.stringify(settings));
  }

  settings(orgId: string): SubOrgSettings {
    const r = prep(this.db, "SELECT settings FROM sub_organizations WHERE org_id = ?").get(orgId) as { settings: string } | undefined;
    return r ? JSON.parse(r.settings) : {};
  }

  isDeleted(orgId: string): boolean {
    const r = prep(this.db, "SELECT deleted_at FROM sub_organizations WHERE org_id = ?").get(orgId) as { deleted_at: number | null } | undefined;
    return !!r && r.deleted_at !== null;
  }

  /** Ids of the deleted (tombstoned) sub-organizations. */
  deletedIds(): Set<string> {
    return new Set((prep(this.db, "SELECT org_id AS id FROM sub_organizations WHERE deleted_at IS NOT NULL").all() as { id: string }[]).map((r) => r.id));
  }

  /** Marks the sub-org deleted and drops every resource it holds (all tables with an org_id, except history). */
  tombstone(orgId: string, now: number): void {
    const tables = (prep(this.db, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[])
      .map((t) => t.name)
      .filter((t) => !HISTORY_TABLES.has(t))
      .filter((t) => (prep(this.db, `PRAGMA table_info("${t}")`).all() as { name: string }[]).some((c) => c.name === "org_id"));
    // Children before parents: users reference the organization, keys reference users.
    for (const t of ORDERED_FIRST.filter((x) => tables.includes(x))) prep(this.db, `DELETE FROM "${t}" WHERE org_id = ?`).run(orgId);
    for (const t of tables.filter((x) => !ORDERED_FIRST.includes(x))) prep(this.db, `DELETE FROM "${t}" WHERE org_id = ?`).run(orgId);
    prep(this.db, "UPDATE sub_organizations SET deleted_at = ? WHERE org_id = ?").run(now, orgId);
  }
}

const HISTORY_TABLES = new Set(["activities", "sub_organizations", "organizations", "mailbox"]);
const ORDERED_FIRST = ["api_keys", "authenticators", "oauth_providers", "import_targets", "wallet_accounts", "private_key_addresses"];
