/**
 * The core's indexes that serve reads only (keyset pages, lookups that would otherwise scan; a
 * family's are its `readIndexes`, family.ts). They hold no data of their own, so they are
 * created with IF NOT EXISTS each time a database is opened rather than as migrations: adding
 * one is never recorded (an older emulator still opens the database), and an older file gains
 * it on its next open.
 */
export const READ_INDEXES: string[] = [
  // list_suborgs: a parent's sub-organizations in creation order, from a (created_at, id) cursor.
  "CREATE INDEX IF NOT EXISTS organizations_parent_created ON organizations(parent_id, created_at, id)",
];
