/**
 * Approval expiry (docs/activity-lifecycle.md, "Approval expiry"): the proposer's submission
 * is the first approval and opens a 24-hour window of emulated time; approvals that have not
 * reached consensus when it closes expire. The activity stays CONSENSUS_NEEDED, and the
 * first approval given after that opens a new window, in which every voter must approve
 * again (the proposer by re-submitting the body or by approve_activity).
 *
 * Votes are never deleted: the activity's `votes` keep the whole history; this module says
 * which of them still count.
 */
import type { StoredVote } from "../store/activities.js";

export const APPROVAL_WINDOW_MS = 24 * 60 * 60 * 1000;

const isApproval = (v: StoredVote) => v.selection === "VOTE_SELECTION_APPROVED";

export type ApprovalWindow = {
  /** When the current window opened (the first approval in it), in ms. */
  openedAt: number;
  /** When its approvals expire. */
  expiresAt: number;
  /** The approvals cast in it, still counting unless `expired`. */
  approvals: StoredVote[];
  expired: boolean;
};

/** The window the latest approvals belong to, as of `now` (undefined: no approval at all). */
export function approvalWindow(votes: readonly StoredVote[], now: number): ApprovalWindow | undefined {
  let openedAt = 0;
  let approvals: StoredVote[] = [];
  for (const v of votes.filter(isApproval)) {
    if (approvals.length === 0 || v.createdAt >= openedAt + APPROVAL_WINDOW_MS) {
      openedAt = v.createdAt;
      approvals = [v];
    } else approvals.push(v);
  }
  if (approvals.length === 0) return undefined;
  const expiresAt = openedAt + APPROVAL_WINDOW_MS;
  return { openedAt, expiresAt, approvals, expired: now >= expiresAt };
}

/** The votes that count at `now`: the approvals of an unexpired window, and every rejection. */
export function votesInForce(votes: readonly StoredVote[], now: number): StoredVote[] {
  const window = approvalWindow(votes, now);
  const live = new Set(window && !window.expired ? window.approvals : []);
  return votes.filter((v) => !isApproval(v) || live.has(v));
}
