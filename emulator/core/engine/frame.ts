/**
 * The activity frame: what one decision on an activity works from, resolved once and handed to
 * every phase that reads it (engine.ts): the session's scope, the consensus decision,
 * MFA and the handler. It holds the entry's subjects (`subjects`), each signer its `signWith`
 * names, looked up once (`signer`), and the policy context, built once per deciding
 * organization and set of votes (`policyContext`). Everything is resolved on first use: an
 * activity the root quorum allows builds no context, and a handler asks for its signer itself.
 *
 * A frame lives for one decision: a later vote decides again over a new frame, so nothing
 * resolved before the store changed is reused.
 */
import type { EvaluationContext } from "../../policy/index.js";
import type { Runtime } from "../runtime.js";
import type { OrganizationRow } from "../store/organizations.js";
import type { StoredVote } from "../store/activities.js";
import type { ActivityEntry, PolicySubjects } from "../vocabulary/define.js";
import type { ResolvedSigner } from "../vocabulary/contexts.js";
import { buildPolicyContext } from "./policy-context.js";

type Lookup = { signer: ResolvedSigner } | { error: unknown };
type Contexts = { whole?: EvaluationContext; items?: EvaluationContext[] };

/** The votes a context was built for: the same votes read the same context. */
const votesKey = (orgId: string, votes: StoredVote[]): string => `${orgId} ${votes.map((v) => v.id).join(",")}`;

export class ActivityFrame {
  private readonly signers = new Map<string, Lookup>();
  private readonly contexts = new Map<string, Contexts>();
  private touched?: PolicySubjects;

  /** `org`: the organization the activity happens in (the handler's); `params`: its intent; `now`: the instant it is decided at (policies, velocity windows). */
  constructor(
    private readonly rt: Runtime,
    readonly entry: ActivityEntry,
    readonly org: OrganizationRow,
    readonly activityType: string,
    readonly params: Record<string, unknown>,
    readonly now: number,
  ) {}

  /** What the entry says the activity touches (its wallet, key, signer, transaction or payload). */
  get subjects(): PolicySubjects {
    return (this.touched ??= this.entry.subjects(this.params));
  }

  /**
   * The key `signWith` names in organization `orgId` (the activity's own unless given): looked up
   * once; a lookup that failed throws its error again (an InputError at `signWith`).
   */
  signer(signWith: string, orgId = this.org.id): ResolvedSigner {
    const key = `${orgId} ${signWith}`;
    let found = this.signers.get(key);
    if (!found) {
      try {
        found = { signer: this.rt.hooks.resolveSigner(this.rt, orgId, signWith) };
      } catch (error) {
        found = { error };
      }
      this.signers.set(key, found);
    }
    if ("error" in found) throw found.error;
    return found.signer;
  }

  /** The policy language's context for this activity decided in `org` with these votes (session scope, MFA conditions, policies). */
  policyContext(org: OrganizationRow, votes: StoredVote[]): EvaluationContext {
    const built = this.builtFor(org, votes);
    return (built.whole ??= this.build(org, votes, this.subjects));
  }

  /**
   * The contexts policies decide on: one per item of a batch (`subjects.each`, decided item by
   * item), else the activity's one context.
   */
  decisionContexts(org: OrganizationRow, votes: StoredVote[]): EvaluationContext[] {
    const subjects = this.subjects;
    if (!subjects.each?.length) return [this.policyContext(org, votes)];
    const built = this.builtFor(org, votes);
    return (built.items ??= subjects.each.map((item) => this.build(org, votes, { ...subjects, each: undefined, ...item })));
  }

  private builtFor(org: OrganizationRow, votes: StoredVote[]): Contexts {
    const key = votesKey(org.id, votes);
    let built = this.contexts.get(key);
    if (!built) this.contexts.set(key, (built = {}));
    return built;
  }

  private build(org: OrganizationRow, votes: StoredVote[], subjects: PolicySubjects): EvaluationContext {
    // A signer that cannot be resolved is left out of the context (a policy reading it errors).
    const signerOf = (signWith: string): ResolvedSigner | undefined => {
      try {
        return this.signer(signWith, org.id);
      } catch {
        return undefined;
      }
    };
    return buildPolicyContext(this.rt, org, this.activityType, this.params, subjects, votes, signerOf, this.now);
  }
}
