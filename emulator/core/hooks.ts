/**
 * The few places the core asks the families something it cannot know itself: which key a
 * `signWith` names, what the policy language sees beyond the activity and its approvers,
 * whether a session's scope denies a proposal, whether a caller's source address is admitted,
 * whether a request asks for app proofs and what an activity's wire form adds, the CORS of a
 * surface a family serves, whether anyone listens for chain events, and what follows a move of
 * the clock. Each family answers in its declaration (`hooks`, family.ts); `composeHooks` makes
 * the one `rt.hooks` the core calls, in the families' order.
 */
import type { IncomingMessage } from "node:http";
import type { Runtime } from "./runtime.js";
import type { Caller } from "./auth/caller.js";
import type { OrganizationRow } from "./store/organizations.js";
import type { ActivityRow, StoredVote } from "./store/activities.js";
import type { ActivityEntry, PolicySubjects } from "./vocabulary/define.js";
import type { ResolvedSigner } from "./vocabulary/contexts.js";
import type { EvaluationContext } from "../policy/index.js";
import type { RpcStatus } from "./errors.js";
import type { CorsPolicy, CorsRequest } from "./http/cors.js";
import type { EventType } from "./events.js";
import { InputError, quote } from "./input-error.js";

declare module "./runtime.js" {
  interface Runtime {
    /** The families' answers to the core's questions, composed from their declarations (`composeHooks`). */
    hooks: Hooks;
  }
}

/** What a family may add to an activity's policy context: the activity, as the frame resolved it (engine/frame.ts). */
export type KeywordInput = {
  org: OrganizationRow;
  activityType: string;
  params: Record<string, unknown>;
  subjects: PolicySubjects;
  votes: StoredVote[];
  /** The key a `signWith` names in `org`, when one does (looked up once per frame). */
  signer(signWith: string): ResolvedSigner | undefined;
  /** The instant the activity is decided at (the frame's). */
  now: number;
};

/** An activity the engine records as completed, with what it learned running it: the entry it ran as and the policy subjects its frame resolved (engine/frame.ts; resolved on first read). */
export type CompletedActivity = { activity: ActivityRow; entry: ActivityEntry; readonly subjects: PolicySubjects };

/** What one family answers; each is optional. */
export type FamilyHooks = {
  /** The key `signWith` (an address or a key id) names in organization `orgId`; an InputError at `signWith` when none. One family answers. */
  resolveSigner?(rt: Runtime, orgId: string, signWith: string): ResolvedSigner;
  /** Keywords of the policy language it supplies for this activity (`wallet`, `secret`, `controls`, ...); a keyword it cannot build is left out. */
  policyKeywords?(rt: Runtime, activity: KeywordInput): Record<string, unknown>;
  /** A denial of the proposal before consensus (a session's scope), given the activity's policy context on demand. */
  proposalDenial?(rt: Runtime, caller: Caller, context: () => EvaluationContext): RpcStatus | undefined;
  /** Refuses a caller the request may not be admitted for (throws a TurnkeyError): checked once the caller is known. */
  admit?(rt: Runtime, caller: Caller, req: Pick<IncomingMessage, "headers" | "socket">): void;
  /** Whether a submission asks for app proofs (the parsed body, and the body as sent). */
  asksAppProofs?(body: Record<string, unknown>, sent: Record<string, unknown>): boolean;
  /** Members the activity's wire form adds (its app proofs). */
  activityView?(rt: Runtime, activity: ActivityRow): Record<string, unknown>;
  /** The CORS policy of a request for a surface the family serves, else undefined. */
  surfaceCors?(rt: Runtime, req: CorsRequest): CorsPolicy | undefined;
  /** Whether anything delivers events of these types now (a subscribed webhook endpoint). */
  eventsWanted?(rt: Runtime, types: readonly EventType[]): boolean;
  /** Work that follows a move of the emulated clock (local chains mine a block at the new time). */
  clockMoved?(rt: Runtime): Promise<void>;
  /** What a completed activity adds (its app proofs, its velocity points): in the transaction that records it, before ACTIVITY_UPDATES is emitted. Every family's, in order. */
  activityCompleted?(rt: Runtime, completed: CompletedActivity): void;
};

/** The families' answers, composed: what the core calls. */
export type Hooks = Required<FamilyHooks>;

/** `hooks` of each family, in order, composed into the runtime's one set. */
export function composeHooks(families: readonly { name: string; hooks?: FamilyHooks }[]): Hooks {
  const all = <K extends keyof FamilyHooks>(k: K): NonNullable<FamilyHooks[K]>[] => families.flatMap((f) => (f.hooks?.[k] ? [f.hooks[k]!] : []));
  const signers = families.filter((f) => f.hooks?.resolveSigner);
  if (signers.length > 1) throw new Error(`families ${signers.map((f) => f.name).join(", ")} each resolve signWith: one may`);
  const resolveSigner = signers[0]?.hooks?.resolveSigner;
  const keywords = all("policyKeywords");
  const denials = all("proposalDenial");
  const admits = all("admit");
  const asks = all("asksAppProofs");
  const views = all("activityView");
  const cors = all("surfaceCors");
  const wanted = all("eventsWanted");
  const clock = all("clockMoved");
  const completed = all("activityCompleted");
  return {
    resolveSigner(rt, orgId, signWith) {
      if (resolveSigner) return resolveSigner(rt, orgId, signWith);
      throw new InputError(`could not find a wallet account or private key for signWith ${quote(signWith)} in organization ${orgId}`, "signWith", "not_found");
    },
    policyKeywords: (rt, activity) => Object.assign({}, ...keywords.map((k) => k(rt, activity))) as Record<string, unknown>,
    proposalDenial(rt, caller, context) {
      for (const d of denials) {
        const denial = d(rt, caller, context);
        if (denial) return denial;
      }
      return undefined;
    },
    admit(rt, caller, req) {
      for (const a of admits) a(rt, caller, req);
    },
    asksAppProofs: (body, sent) => asks.some((a) => a(body, sent)),
    activityView: (rt, activity) => Object.assign({}, ...views.map((v) => v(rt, activity))) as Record<string, unknown>,
    surfaceCors(rt, req) {
      for (const c of cors) {
        const policy = c(rt, req);
        if (policy) return policy;
      }
      return undefined;
    },
    eventsWanted: (rt, types) => wanted.some((w) => w(rt, types)),
    async clockMoved(rt) {
      for (const c of clock) await c(rt);
    },
    activityCompleted(rt, done) {
      for (const c of completed) c(rt, done);
    },
  };
}
