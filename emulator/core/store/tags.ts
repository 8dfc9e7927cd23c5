import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper } from "./rows.js";
import { UNIQUE_RULES, uniquely } from "./unique.js";

export type TagType = "TAG_TYPE_USER" | "TAG_TYPE_PRIVATE_KEY";

export type TagRow = { id: string; orgId: string; name: string; tagType: TagType; createdAt: number; updatedAt: number };

const rows = rowMapper<TagRow>();

/** User tags and private-key tags: a named set of member ids of one kind. */
export class Tags {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string, tagType: TagType): TagRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM tags WHERE id = ? AND org_id = ? AND tag_type = ?").get(id, orgId, tagType));
  }

  byName(orgId: string, name: string, tagType: TagType): TagRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM tags WHERE org_id = ? AND name = ? AND tag_type = ?").get(orgId, name, tagType));
  }

  /** Tags of both kinds in the organization. */
  count(orgId: string): number {
    return (prep(this.db, "SELECT COUNT(*) AS n FROM tags WHERE org_id = ?").get(orgId) as { n: number }).n;
  }

  list(orgId: string, tagType: TagType): TagRow[] {
    return rows.readAll(prep(this.db, "SELECT * FROM tags WHERE org_id = ? AND tag_type = ? ORDER BY created_at, id").all(orgId, tagType));
  }

  insert(t: TagRow): void {
    uniquely(UNIQUE_RULES.tag, () => UNIQUE_RULES.tag.error(t.name, t.tagType), () =>
      insertRow(this.db, "tags", rows, t),
    );
  }

  rename(id: string, name: string, now: number): void {
    const tagType = (prep(this.db, "SELECT tag_type FROM tags WHERE id = ?").get(id) as { tag_type: string } | undefined)?.tag_type ?? "";
    uniquely(UNIQUE_RULES.tag, () => UNIQUE_RULES.tag.error(name, tagType), () => prep(this.db, "UPDATE tags SET name = ?, updated_at = ? WHERE id = ?").run(name, now, id));
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM tags WHERE id = ?").run(id);
  }

  members(tagId: string): string[] {
    return (prep(this.db, "SELECT member_id FROM tag_members WHERE tag_id = ? ORDER BY rowid").all(tagId) as { member_id: string }[]).map((r) => r.member_id);
  }

  tagsOf(memberId: string): string[] {
    return (prep(this.db, "SELECT tag_id FROM tag_members WHERE member_id = ? ORDER BY rowid").all(memberId) as { tag_id: string }[]).map((r) => r.tag_id);
  }

  addMember(tagId: string, memberId: string): void {
    prep(this.db, "INSERT OR IGNORE INTO tag_members (tag_id, member_id) VALUES (?, ?)").run(tagId, memberId);
  }

  removeMember(tagId: string, memberId: string): void {
    prep(this.db, "DELETE FROM tag_members WHERE tag_id = ? AND member_id = ?").run(tagId, memberId);
  }

  removeMemberEverywhere(memberId: string): void {
    prep(this.db, "DELETE FROM tag_members WHERE member_id = ?").run(memberId);
  }
}
