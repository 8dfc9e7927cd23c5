/**
 * Secrets (import_secrets / export_secrets / list_secrets): metadata in the clear, the value
 * sealed; and the single-use ingress target keys init_import_secrets hands out, sealed until an
 * import consumes them.
 */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    secrets: Secrets;
  }
}

export type SecretKeyValue = { key: string; value: string };

export type SecretRow = {
  id: string;
  orgId: string;
  name: string | null;
  staticProperties: SecretKeyValue[];
  /** The sealed envelope of the value (activities.ts binds it to the org and id). */
  valueSealed: string;
  createdAt: number;
};

export type SecretImportTargetRow = {
  /** Uncompressed lowercase hex, exactly as written into the target message. */
  targetPublic: string;
  orgId: string;
  userId: string;
  targetKeySealed: string;
  createdAt: number;
};

const secretRows = rowMapper<SecretRow>({ json: ["staticProperties"] });
const targetRows = rowMapper<SecretImportTargetRow>();

export class Secrets {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): SecretRow | undefined {
    return secretRows.read(prep(this.db, "SELECT * FROM secrets WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  byName(orgId: string, name: string): SecretRow | undefined {
    return secretRows.read(prep(this.db, "SELECT * FROM secrets WHERE org_id = ? AND name = ?").get(orgId, name));
  }

  /** Newest first. */
  forOrg(orgId: string): SecretRow[] {
    return secretRows.readAll(prep(this.db, "SELECT * FROM secrets WHERE org_id = ? ORDER BY created_at DESC, rowid DESC").all(orgId));
  }

  delete(orgId: string, id: string): void {
    prep(this.db, "DELETE FROM secrets WHERE id = ? AND org_id = ?").run(id, orgId);
  }

  insert(row: SecretRow): void {
    insertRow(this.db, "secrets", secretRows, row);
  }

  target(orgId: string, targetPublic: string): SecretImportTargetRow | undefined {
    return targetRows.read(prep(this.db, "SELECT * FROM secret_import_targets WHERE target_public = ? AND org_id = ?").get(targetPublic, orgId));
  }

  insertTarget(row: SecretImportTargetRow): void {
    insertRow(this.db, "secret_import_targets", targetRows, row);
  }

  deleteTarget(targetPublic: string): void {
    prep(this.db, "DELETE FROM secret_import_targets WHERE target_public = ?").run(targetPublic);
  }
}
