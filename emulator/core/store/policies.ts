import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { countsByOrg, insertRow, rowMapper } from "./rows.js";
import { UNIQUE_RULES, uniquely } from "./unique.js";
import type { Activities } from "./activities.js";

export type PolicyRow = {
  id: string;
  orgId: string;
  name: string;
  effect: string;
  condition: string | null;
  consensus: string | null;
  time: string | null;
  notes: string;
  createdAt: number;
  updatedAt: number;
};

const rows = rowMapper<PolicyRow>();

export class Policies {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): PolicyRow | undefined {
    const r = prep(this.db, "SELECT * FROM policies WHERE id = ? AND org_id = ?").get(id, orgId);
    return rows.read(r);
  }

  byName(orgId: string, name: string): PolicyRow | undefined {
    const r = prep(this.db, "SELECT * FROM policies WHERE org_id = ? AND name = ?").get(orgId, name);
    return rows.read(r);
  }

  list(orgId: string): PolicyRow[] {
    return (prep(this.db, "SELECT * FROM policies WHERE org_id = ? ORDER BY created_at, rowid").all(orgId) as unknown[]).map(rows.one);
  }

  /** Policies per organization, every organization at once (the control UI's tree). */
  countsByOrg(): Map<string, number> {
    return countsByOrg(this.db, "policies");
  }

  insert(p: PolicyRow): void {
    uniquely(UNIQUE_RULES.policy, UNIQUE_RULES.policy.error, () => insertRow(this.db, "policies", rows, p));
  }

  update(p: PolicyRow): void {
    uniquely(UNIQUE_RULES.policy, UNIQUE_RULES.policy.error, () =>
      prep(this.db, "UPDATE policies SET name = ?, effect = ?, condition = ?, consensus = ?, time = ?, notes = ?, updated_at = ? WHERE id = ?")
        .run(p.name, p.effect, p.condition, p.consensus, p.time, p.notes, p.updatedAt, p.id),
    );
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM policies WHERE id = ?").run(id);
  }
}

export type SmartContractInterfaceRow = {
  id: string;
  orgId: string;
  address: string;
  type: string;
  interface: string;
  label: string;
  notes: string;
  createdAt: number;
  updatedAt: number;
};

const sci = rowMapper<SmartContractInterfaceRow>();

export class SmartContractInterfaces {
  constructor(private readonly db: Db) {}

  get(orgId: string, id: string): SmartContractInterfaceRow | undefined {
    const r = prep(this.db, "SELECT * FROM smart_contract_interfaces WHERE id = ? AND org_id = ?").get(id, orgId);
    return sci.read(r);
  }

  /** Addresses are compared lowercase. */
  byAddress(orgId: string, address: string): SmartContractInterfaceRow[] {
    return (prep(this.db, "SELECT * FROM smart_contract_interfaces WHERE org_id = ? AND address = ? ORDER BY created_at").all(orgId, address.toLowerCase()) as unknown[]).map(sci.one);
  }

  list(orgId: string): SmartContractInterfaceRow[] {
    return (prep(this.db, "SELECT * FROM smart_contract_interfaces WHERE org_id = ? ORDER BY created_at, rowid").all(orgId) as unknown[]).map(sci.one);
  }

  insert(s: SmartContractInterfaceRow): void {
    insertRow(this.db, "smart_contract_interfaces", sci, { ...s, address: s.address.toLowerCase() });
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM smart_contract_interfaces WHERE id = ?").run(id);
  }
}

export type PolicyEvaluationRow = {
  id: string;
  activityId: string;
  orgId: string;
  voteId: string | null;
  evaluations: { policyId: string; outcome: string }[];
  createdAt: number;
};

/** Policy evaluations, kept in their activity's row (activities.evaluations). */
export class PolicyEvaluations {
  /** The store's own activities repository (the evaluations live in its rows). */
  constructor(private readonly activities: Activities) {}

  forActivity(activityId: string): PolicyEvaluationRow[] {
    const found = this.activities.evaluations(activityId);
    return (found?.records ?? []).map((r) => ({ id: r.id, activityId, orgId: found!.orgId, voteId: r.voteId, evaluations: r.evaluations, createdAt: r.createdAt }));
  }
}
