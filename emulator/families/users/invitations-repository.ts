/** Invitations to join an organization (create_invitations / delete_invitation). */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    invitations: Invitations;
  }
}

export type InvitationRow = {
  id: string;
  orgId: string;
  senderUserId: string;
  receiverName: string;
  receiverEmail: string;
  /** User tag ids the receiver gets on joining. */
  receiverTags: string[];
  accessType: string;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<InvitationRow>({ json: ["receiverTags"] });

export class Invitations {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): InvitationRow | undefined {
    return rows.read(prep(this.db, "SELECT * FROM invitations WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  countForOrg(orgId: string): number {
    return (prep(this.db, "SELECT COUNT(*) AS n FROM invitations WHERE org_id = ?").get(orgId) as { n: number }).n;
  }

  forOrg(orgId: string): InvitationRow[] {
    return rows.readAll(prep(this.db, "SELECT * FROM invitations WHERE org_id = ? ORDER BY created_at, rowid").all(orgId));
  }

  insert(i: InvitationRow): void {
    insertRow(this.db, "invitations", rows, i);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM invitations WHERE id = ?").run(id);
  }
}
