/**
 * Velocity controls (docs/velocity-controls.md): an organization's definitions, unique by
 * `identifier` (the name policies read as `controls.<identifier>`), and their data points: what
 * one completed activity contributed to one control, kept with the user, wallet and time the
 * control's window and grouping select on.
 */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper } from "../../core/store/rows.js";
import { uniquely } from "../../core/store/unique.js";
import { invalidArgument } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";
import type { Wire } from "../../../contracts/wire.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    velocityControls: VelocityControls;
  }
}

export type VelocityControlRow = {
  id: string;
  orgId: string;
  name: string;
  identifier: string;
  /** As the request gave it (validated: definition.ts). */
  dataSource: Wire["v1VelocityControlDataSource"];
  aggregation: Wire["v1VelocityControlAggregation"];
  createdAt: number;
  updatedAt: number;
};

/** One activity's contribution to one control. */
export type VelocityPointRow = {
  controlId: string;
  activityId: string;
  orgId: string;
  userId: string;
  walletId: string | null;
  /** The summed amount, an integer scaled by the control's scale (velocity/definition.ts), as a decimal string. */
  amount: string;
  /** How many data points the activity made (transfers, or 1 execution). */
  count: number;
  /** When the activity completed (emulated clock, ms). */
  at: number;
};

const controls = rowMapper<VelocityControlRow>({ json: ["dataSource", "aggregation"] });
const points = rowMapper<VelocityPointRow>();

const IDENTIFIER_RULE = { columns: "velocity_controls.org_id, velocity_controls.identifier" };

export const duplicateIdentifier = (identifier: string) =>
  invalidArgument(`a velocity control with identifier ${quote(identifier)} already exists in this organization`, "parameters.identifier");

export class VelocityControls {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): VelocityControlRow | undefined {
    return controls.read(prep(this.db, "SELECT * FROM velocity_controls WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  byIdentifier(orgId: string, identifier: string): VelocityControlRow | undefined {
    return controls.read(prep(this.db, "SELECT * FROM velocity_controls WHERE org_id = ? AND identifier = ?").get(orgId, identifier));
  }

  /** Oldest first. */
  forOrg(orgId: string): VelocityControlRow[] {
    return controls.readAll(prep(this.db, "SELECT * FROM velocity_controls WHERE org_id = ? ORDER BY created_at, rowid").all(orgId));
  }

  /** Whether the organization has any control (checked on every activity before any work). */
  any(orgId: string): boolean {
    return prep(this.db, "SELECT 1 FROM velocity_controls WHERE org_id = ? LIMIT 1").get(orgId) !== undefined;
  }

  insert(c: VelocityControlRow): void {
    uniquely(IDENTIFIER_RULE, () => duplicateIdentifier(c.identifier), () => insertRow(this.db, "velocity_controls", controls, c));
  }

  /** Deletes the control and its data points. */
  delete(orgId: string, id: string): void {
    prep(this.db, "DELETE FROM velocity_control_points WHERE control_id = ?").run(id);
    prep(this.db, "DELETE FROM velocity_controls WHERE id = ? AND org_id = ?").run(id, orgId);
  }

  /** Records an activity's contribution once (a second record of the same activity is ignored). */
  addPoint(p: VelocityPointRow): void {
    const cols = points.write(p);
    const names = Object.keys(cols);
    prep(this.db, `INSERT OR IGNORE INTO velocity_control_points (${names.join(", ")}) VALUES (${names.map(() => "?").join(", ")})`).run(...Object.values(cols));
  }

  /**
   * The control's data points at or after `since` (null: all of them), in one group: `userId`
   * or `walletId` when given (grouping by organization passes neither).
   */
  pointsOf(controlId: string, since: number | null, group: { userId?: string; walletId?: string }): VelocityPointRow[] {
    const where = ["control_id = ?"];
    const args: (string | number)[] = [controlId];
    if (since !== null) {
      where.push("at >= ?");
      args.push(since);
    }
    if (group.userId !== undefined) {
      where.push("user_id = ?");
      args.push(group.userId);
    }
    if (group.walletId !== undefined) {
      where.push("wallet_id = ?");
      args.push(group.walletId);
    }
    return points.readAll(prep(this.db, `SELECT * FROM velocity_control_points WHERE ${where.join(" AND ")} ORDER BY at, rowid`).all(...args));
  }
}
