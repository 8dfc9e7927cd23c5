/**
 * MFA policies (per user, evaluated in `evaluationOrder`) and the MFA challenges they raise on
 * activities: one per (activity, user) whose policy applied, with the methods presented so far.
 */
import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper, updateRow } from "./rows.js";
import type { StoredVote } from "./activities.js";

/** One authentication method: AUTHENTICATION_TYPE_* and, optionally, the one credential (or session profile) it must be. */
export type AuthMethod = { type: string; id?: string };
/** One step of a policy: any of these methods satisfies it. */
export type RequiredStep = { any: AuthMethod[] };

export type MfaPolicyRow = {
  id: string;
  orgId: string;
  userId: string;
  name: string;
  condition: string;
  requiredMethods: RequiredStep[];
  /** The policy's `order` (lower first). */
  evaluationOrder: number;
  notes: string | null;
  createdAt: number;
  updatedAt: number;
};

const policies = rowMapper<MfaPolicyRow>({ json: ["requiredMethods"] });

export class MfaPolicies {
  constructor(private readonly db: Db) {}

  get(orgId: string, userId: string, id: string): MfaPolicyRow | undefined {
    return policies.read(prep(this.db, "SELECT * FROM mfa_policies WHERE id = ? AND org_id = ? AND user_id = ?").get(id, orgId, userId));
  }

  /** A user's policies in evaluation order (ties: oldest first). */
  forUser(userId: string): MfaPolicyRow[] {
    return (prep(this.db, "SELECT * FROM mfa_policies WHERE user_id = ? ORDER BY evaluation_order, created_at, rowid").all(userId) as unknown[]).map(policies.one);
  }

  insert(p: MfaPolicyRow): void {
    insertRow(this.db, "mfa_policies", policies, p);
  }

  update(id: string, patch: Partial<Omit<MfaPolicyRow, "id" | "orgId" | "userId" | "createdAt">>): void {
    updateRow(this.db, "mfa_policies", policies, id, patch);
  }

  delete(id: string): void {
    prep(this.db, "DELETE FROM mfa_policies WHERE id = ?").run(id);
  }
}

export type MfaChallengeRow = {
  id: string;
  activityId: string;
  userId: string;
  mfaPolicyId: string;
  /** The policy's steps when it applied (later edits of the policy do not move the goalposts). */
  requiredMethods: RequiredStep[];
  /** Every method the user has presented on this activity, in order. */
  satisfiedMethods: AuthMethod[];
  satisfied: boolean;
  /** An approver's vote, counted once their MFA is satisfied (null for the proposer, whose vote is on the activity). */
  heldVote: StoredVote | null;
  createdAt: number;
  updatedAt: number;
};

const challenges = rowMapper<MfaChallengeRow>({ json: ["requiredMethods", "satisfiedMethods", "heldVote"], bool: ["satisfied"] });

export class MfaChallenges {
  constructor(private readonly db: Db) {}

  forActivity(activityId: string): MfaChallengeRow[] {
    return (prep(this.db, "SELECT * FROM mfa_challenges WHERE activity_id = ? ORDER BY created_at, rowid").all(activityId) as unknown[]).map(challenges.one);
  }

  of(activityId: string, userId: string): MfaChallengeRow | undefined {
    return challenges.read(prep(this.db, "SELECT * FROM mfa_challenges WHERE activity_id = ? AND user_id = ?").get(activityId, userId));
  }

  insert(c: MfaChallengeRow): void {
    insertRow(this.db, "mfa_challenges", challenges, c);
  }

  update(id: string, patch: Partial<Pick<MfaChallengeRow, "satisfiedMethods" | "satisfied" | "heldVote" | "updatedAt">>): void {
    updateRow(this.db, "mfa_challenges", challenges, id, patch);
  }
}
