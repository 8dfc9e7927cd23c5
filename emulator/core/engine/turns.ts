import type { Caller } from "../auth/caller.js";

/**
 * One piece of work at a time on each activity, per instance (`rt.activityTurns`). A submission
 * takes its turn on its own fingerprint, a vote on the fingerprint it names, so a proposal, its
 * copies, MFA presentations and approvals are decided one after the other: none reads the
 * activity while another is still deciding it or awaiting its chain (a send, a swap), and the
 * handler runs once. A request identical to one still waiting or running (the same body from the
 * same credential: a retry) does not queue again: it gets that request's answer, its error
 * included. Nothing is kept once the last turn on an activity has ended.
 */
export class ActivityTurns {
  /** The end of the last turn taken on each activity (by fingerprint) that is still running. */
  private readonly tails = new Map<string, Promise<void>>();
  /** The answer of each request still waiting or running, by `requestKey`. */
  private readonly answers = new Map<string, Promise<unknown>>();

  /**
   * Runs `work` once every earlier turn on `activity` has ended, and answers what it answers;
   * a request with the same `request` key already waiting or running answers with it instead.
   */
  take<T>(activity: string, request: string, work: () => Promise<T>): Promise<T> {
    const same = this.answers.get(request);
    if (same) return same as Promise<T>;
    const before = this.tails.get(activity) ?? Promise.resolve();
    // Forgotten as it settles, before its callers resume: a request made after that runs afresh.
    const answer: Promise<T> = before
      .then(() => work())
      .finally(() => {
        if (this.answers.get(request) === answer) this.answers.delete(request);
        if (this.tails.get(activity) === tail) this.tails.delete(activity);
      });
    const tail = answer.then(
      () => undefined,
      () => undefined,
    );
    this.answers.set(request, answer);
    this.tails.set(activity, tail);
    return answer;
  }

  /** How many activities have a turn running or waiting (0 when the instance is idle). */
  get busy(): number {
    return this.tails.size;
  }
}

/** Which requests are the same request: the body's fingerprint as stamped by one credential of one user. */
export function requestKey(fingerprint: string, caller: Caller): string {
  const { credential } = caller;
  return [fingerprint, caller.user.id, credential.type, credential.id, credential.publicKey].join("\n");
}
