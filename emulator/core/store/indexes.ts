/**
 * Indexes that serve reads only (keyset pages, lookups that would otherwise scan). They hold
 * no data of their own, so they are created with IF NOT EXISTS each time a database is opened
 * rather than as numbered migrations: adding one never changes a database's schema version,
 * and an older file gains it on its next open.
 */
export const READ_INDEXES: string[] = [
  // list_suborgs: a parent's sub-organizations in creation order, from a (created_at, id) cursor.
  "CREATE INDEX IF NOT EXISTS organizations_parent_created ON organizations(parent_id, created_at, id)",
];
