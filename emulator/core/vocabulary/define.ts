/**
 * The operation registry's vocabulary: one entry per emulated operation of the coordinator
 * (submit and query) and the auth proxy, defined next to its handler with `defineActivity`,
 * `defineQuery` or `defineProxyEndpoint`. An entry holds everything the emulator knows about
 * its operation beyond the published contract: the older activity types it still accepts,
 * how it is authorized, where it may be addressed from, and its handler, whose parameters
 * are inferred from the generated zod contract. This module and ./contexts.ts import only
 * types, so every layer may import them without closing a cycle.
 */
import type { z } from "zod";
import type { operations as coordinatorOperations, intents, Results } from "../../../contracts/generated/public-api.js";
import type { operations as proxyOperations } from "../../../contracts/generated/auth-proxy.js";
import type { UndocumentedActivityType } from "../../../contracts/legacy.js";
import type { OperationContract } from "../../../contracts/index.js";
import type { TurnkeyError } from "../errors.js";
import type { ActivityContext, ProxyContext, QueryContext } from "./contexts.js";
import type { ActivityAction, ActivityPolicy, ActivityResource } from "../../policy/activity-taxonomy.js";
import type { ActivityRow } from "../store/activities.js";

declare module "../runtime.js" {
  interface Runtime {
    /** Every emulated operation (composed once from the families' declarations, emulator/families.ts): read here, never imported below the root. */
    registry: Registry;
  }
}

type CoordinatorOps = typeof coordinatorOperations;
type ProxyOps = typeof proxyOperations;

type SubmitPath = { [P in keyof CoordinatorOps]: CoordinatorOps[P]["kind"] extends "submit" ? P : never }[keyof CoordinatorOps];
type QueryPath = { [P in keyof CoordinatorOps]: CoordinatorOps[P]["kind"] extends "query" ? P : never }[keyof CoordinatorOps];

/** Every published submit operation, by name (`create_wallet`). */
export type SubmitName = SubmitPath extends `/public/v1/submit/${infer N}` ? N : never;
/** Every published query operation, by name (`get_wallet`). */
export type QueryName = QueryPath extends `/public/v1/query/${infer N}` ? N : never;
/** Every published auth-proxy endpoint, by name (`otp_init`). */
export type ProxyName = keyof ProxyOps extends infer P ? (P extends `/v1/${infer N}` ? N : never) : never;

/** Every activity type that has an intent in the published document, current and older. */
export type ActivityType = keyof typeof intents;
/** The parameters (intent) of an activity type. */
export type IntentOf<T> = T extends ActivityType ? z.output<(typeof intents)[T]> : never;
/** The result member of an activity type; empty for one that has none (approve, reject). */
export type ResultOf<T> = T extends keyof Results ? z.output<Results[T]> : Record<string, never>;

type SubmitRequest<N extends SubmitName> = z.output<CoordinatorOps[`/public/v1/submit/${N}`]["request"]>;
/** The activity type a submit operation's current version sends (`init_otp`: ACTIVITY_TYPE_INIT_OTP_V3). */
export type CurrentActivityType<N extends SubmitName> = SubmitRequest<N> extends { type: infer T extends ActivityType } ? T : never;
/** The parameters of a submit operation: its current intent, or an older one it still accepts. */
export type ActivityParams<N extends SubmitName, L extends ActivityType | UndocumentedActivityType = never> = SubmitRequest<N> extends { parameters: infer P } ? P | IntentOf<L> : never;
/** The body of a query, as the contract parses it. */
export type QueryBody<N extends QueryName> = z.output<CoordinatorOps[`/public/v1/query/${N}`]["request"]>;
/** The body of an auth-proxy request, as the contract parses it. */
export type ProxyBody<N extends ProxyName> = z.output<ProxyOps[`/v1/${N}`]["request"]>;

/**
 * How an activity is decided once its caller may act in the target organization:
 * - "policy": the root quorum, else the organization's policies (the default);
 * - "root-quorum": only the root quorum may approve it; policies are not consulted;
 * - "own-credential": implicitly allowed when the caller acts on their own credentials
 *   (`parameters.userId` is the caller), else like "policy";
 * - "vote": approve/reject: a vote on another activity, counted by the engine.
 */
export type Authorization = "policy" | "root-quorum" | "own-credential" | "vote";

/**
 * Which organizations a request may address beyond the caller's own (queries may always read
 * a sub-organization of the caller's; see auth/access.ts):
 * - `parentMayInitiate`: an auth flow the parent organization may also start for a
 *   sub-organization's user (decided by the parent's quorum and policies);
 * - `servedInCallerOrg`: addressed to the parent organization by a sub-organization's
 *   credential (login and discovery), it happens in the caller's own organization.
 */
export type Reach = { parentMayInitiate: boolean; servedInCallerOrg: boolean };

/** What the policy engine is told an activity touches (the `wallet`, `private_key`, ... keywords). */
export type PolicySubjects = {
  walletId?: string;
  privateKeyId?: string;
  /** A wallet account or private key address the activity acts on. */
  address?: string;
  /** The signer named by `signWith` (an address or a private key id). */
  signWith?: string;
  transaction?: { type: string; unsigned: string };
  payload?: { encoding: string; payload: string };
  /** A secret the activity reads (the `secret` keyword: {id, name, static_properties}). */
  secretId?: string;
  /** What a batch touches item by item: each item is decided on its own and every one must be allowed (export_secrets). */
  each?: PolicySubjects[];
};

/**
 * What a handler hands back: its result member, or a failure that must still commit the
 * handler's writes (an OTP attempt counted against a wrong code).
 */
export type ActivityOutcome = Record<string, unknown> | { failAfterCommit: TurnkeyError };

/**
 * An activity whose effect lies outside the database (a chain), in three steps: prepare (the
 * handler's `run`, inside the activity's transaction: it checks the request, reads, and takes
 * what must not be taken twice), then the effect (awaited by the engine outside any
 * transaction: chain reads, signing, the broadcast; it writes nothing), then `settle` with what
 * the effect gave, inside the transaction that records the activity, so its rows (a send's
 * status, an Earn request, a swap) and the activity commit together. An identical submission
 * never reaches the effect twice: it waits for the activity's turn (engine/turns.ts) and is
 * answered as recorded.
 */
export class ChainEffect<E = unknown> {
  constructor(
    readonly effect: () => Promise<E>,
    readonly settle: (effected: E) => ActivityOutcome,
    /** When the effect fails (the error is answered, no activity recorded): gives back, in a transaction, what prepare took. */
    readonly abandon?: () => void,
  ) {}
}

/**
 * A handler's answer with an effect outside the database: `effect` is awaited outside the
 * transaction, then `settle` records what it gave with the activity; should the effect fail,
 * `abandon` gives back what the handler took while preparing it.
 */
export function chainEffect<E>(effect: () => Promise<E>, settle: (effected: E) => ActivityOutcome, abandon?: () => void): ChainEffect<E> {
  return new ChainEffect(effect, settle, abandon);
}

/**
 * What a handler answers: its outcome; a chain effect to await and settle; or, for a handler
 * that writes nothing (signing, sent to a worker while the server is busy), a promise of its outcome.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type HandlerAnswer = ActivityOutcome | ChainEffect<any> | Promise<ActivityOutcome>;

/**
 * What the policy language exposes about an activity (`activity.resource`, `activity.action`,
 * `activity.params`), for its current type and every older one its entry accepts. `source`
 * says where the pair comes from: "documented" (the published resource/action table) or
 * "inferred" from the type's name (UNCONFIRMED). `params` lists the intent fields exposed as
 * `activity.params`: policy name, intent field, and a value when the intent omits it. An entry
 * without `policy` has no resource or action: a policy reading them gets a MissingField error.
 */
export type PolicySpec<P> = {
  resource: ActivityResource;
  action: ActivityAction;
  source: "documented" | "inferred";
  params?: readonly (readonly [name: string, intentField: keyof P & string, whenMissing?: string])[];
};

/** One address an activity derived: the payload of its APP_PROOF_TYPE_ADDRESS_DERIVATION proof. */
export type AddressDerivation = { organizationId: string; walletId: string; derivationPath: string; address: string };

/**
 * The addresses a completed activity derived, from its intent, its result member and its row
 * (families/app-proofs/proofs.ts records one proof per address when the activity asked for proofs).
 */
export type AppProofs<P> = (intent: P, result: Record<string, unknown>, activity: ActivityRow) => AddressDerivation[];

/** Most items an array under each key of a request may hold, at any depth (users: 100). */
export type ArrayLimits = Readonly<Record<string, number>>;

/**
 * What one older activity version means in the current version's terms (`olderVersions` of an
 * entry): the engine records, shows policies and answers it as its own type, intent and result
 * member, and executes it as this says. Its intent is read with its own schema only.
 */
export type OlderVersion<N extends SubmitName, T extends ActivityType> = {
  /**
   * The current parameters that ask what the older intent asks, with the older version's
   * documented defaults for the fields it lacks. Pure: the policy subjects, the app proofs and
   * the handler read the older intent through it.
   */
  params: (older: IntentOf<T>) => ActivityParams<N>;
  /**
   * Runs instead of the entry's handler when the older version asks more than its current
   * parameters say (a user named by email, private keys of its own, a field to check); `current`
   * runs the entry's handler (on `params` of the older intent unless given others). What it
   * cannot honour it refuses with an InputError naming the older intent's field.
   */
  run?: (ctx: ActivityContext, older: IntentOf<T>, current: (params?: ActivityParams<N>) => HandlerAnswer) => HandlerAnswer;
  /** Its own result member from the current one's, when their fields differ (else the document's schema of its member keeps the fields it names). */
  result?: (current: ResultOf<CurrentActivityType<N>>) => ResultOf<T>;
  /** Its `activity.params`, when the published table gives it other fields than the current version's. */
  policyParams?: PolicySpec<IntentOf<T>>["params"];
};

export type ActivitySpec<N extends SubmitName, L extends ActivityType | UndocumentedActivityType, O extends ActivityType = never> = {
  /**
   * Older activity types still accepted on this path whose intent reads as the current one
   * (parsed as either; each answered with its own result member), and names no document has
   * that an SDK sends for it (answered as the current type).
   */
  legacy?: readonly L[];
  /** Older activity types accepted on this path whose intent differs from the current one: how each runs. */
  olderVersions?: { [T in O]: OlderVersion<N, T> };
  authorization?: Authorization;
  parentMayInitiate?: boolean;
  servedInCallerOrg?: boolean;
  /** The auth proxy submits it as its proxy user (the proxy user's policy allows exactly these). */
  proxyForwarded?: boolean;
  /** What the policy engine sees this activity touch. */
  subjects?: (params: ActivityParams<N, L>) => PolicySubjects;
  /** `activity.resource`, `activity.action` and `activity.params` in policies. */
  policy?: PolicySpec<ActivityParams<N, L>>;
  /** Caps on the request's arrays by key, at any depth (`limits/request-limits.ts`; others: MAX_ARRAY_ITEMS). */
  arrayLimits?: ArrayLimits;
  /** The addresses it derived, when it derives any: each gets an app proof if the request asked (`generateAppProofs`). */
  appProofs?: AppProofs<ActivityParams<N, L>>;
  /** Counted under the service's separate limit of 10 requests per second, not the plan's (tkhq/docs `reference/faq.mdx`; `families/control/rate-limit.ts`). */
  separateRateLimit?: boolean;
  /**
   * Runs inside the activity's SQLite transaction: throwing a TurnkeyError rolls everything
   * back. An effect outside the database (a chain) is answered as a `chainEffect` (prepare ->
   * effect -> settle). A handler that writes nothing may return a promise (async signing): it
   * settles outside the transaction.
   */
  run: (ctx: ActivityContext, params: ActivityParams<N, L>) => HandlerAnswer;
};

export type ActivityEntry = {
  kind: "submit";
  name: SubmitName;
  /** Every older type (and SDK spelling) this path accepts besides its current type: `legacy` and `olderVersions`, newest first as written. */
  legacy: readonly (ActivityType | UndocumentedActivityType)[];
  /** The entry as each of its `olderVersions` runs: its handler, subjects, app proofs and policy read the older intent. */
  olderVersions: ReadonlyMap<string, ActivityEntry>;
  authorization: Authorization;
  reach: Reach;
  proxyForwarded: boolean;
  subjects: (params: Record<string, unknown>) => PolicySubjects;
  policy: ActivityPolicy | undefined;
  arrayLimits: ArrayLimits;
  appProofs: AppProofs<Record<string, unknown>> | undefined;
  separateRateLimit: boolean;
  run: (ctx: ActivityContext, params: Record<string, unknown>) => HandlerAnswer;
};

export type QueryEntry = {
  kind: "query";
  name: QueryName;
  reach: Reach;
  arrayLimits: ArrayLimits;
  separateRateLimit: boolean;
  run: (ctx: QueryContext, body: Record<string, unknown>) => Record<string, unknown>;
};

export type ProxyEntry = {
  kind: "proxy";
  name: ProxyName;
  /** The endpoint takes an empty body (`{}` implied). */
  emptyBody: boolean;
  /** The endpoint checks the captcha token when the configuration enables captcha. */
  captcha: boolean;
  arrayLimits: ArrayLimits;
  run: (px: ProxyContext, body: Record<string, unknown>) => unknown;
};

export type OperationEntry = ActivityEntry | QueryEntry | ProxyEntry;

/**
 * A published coordinator operation the emulator does not emulate, declared where the
 * operation would live: its 501 answer, /openapi.json and docs/parity.md give `reason`. An
 * activity may still say what policies would see of it (`policy`).
 */
export type NotEmulatedEntry = {
  kind: "not-emulated";
  name: SubmitName | QueryName;
  reason: string;
  policy: ActivityPolicy | undefined;
};

/** What a module of entries lists: emulated operations and the ones declared not emulated. */
export type CatalogEntry = OperationEntry | NotEmulatedEntry;

/**
 * The composed catalog of every entry (core/registry.ts `composeRegistry`). Only the
 * composition root (families.ts) imports it; the engine, the routers and the proxy read it
 * from the runtime (`rt.registry`), so no module the catalog gathers depends on the catalog.
 */
export type Registry = {
  activities: ReadonlyMap<string, ActivityEntry>;
  queries: ReadonlyMap<string, QueryEntry>;
  endpoints: ReadonlyMap<string, ProxyEntry>;
  /** The entry behind a routed operation, if it is emulated. */
  entryFor(kind: "submit" | "query" | "proxy", name: string): OperationEntry | undefined;
  /** A routed submit operation's entry and the contract read for the body's activity type (older versions its entry accepts included). */
  resolveActivity(op: OperationContract, activityType: unknown): { op: OperationContract; entry: ActivityEntry | undefined; accepted: boolean };
  /** The submit operation (contract read for that type) and entry behind an activity type, older types included. */
  operationForActivityType(activityType: string): { op: OperationContract; entry: ActivityEntry } | undefined;
  /** Every activity type the auth proxy submits as its proxy user (current and accepted older versions). */
  proxyForwardedActivityTypes: readonly string[];
  /** The operations declared not emulated, by name. */
  notEmulated: ReadonlyMap<string, NotEmulatedEntry>;
  /** Why an operation without an entry is not emulated (a generic reason when none is declared). */
  notEmulatedReason(name: string): string;
  /** What policies see of an activity type (with or without `ACTIVITY_TYPE_`): its entry's `policy`, or the taxonomy's row for a type no entry accepts. */
  policyOf(activityType: string): ActivityPolicy | undefined;
};

const none = (): PolicySubjects => ({});
const NONE: ArrayLimits = {};

export function defineActivity<N extends SubmitName, L extends ActivityType | UndocumentedActivityType = never, O extends ActivityType = never>(
  name: N,
  spec: ActivitySpec<N, L, O>,
): ActivityEntry {
  const older = Object.entries(spec.olderVersions ?? {}) as [ActivityType, OlderVersion<N, ActivityType>][];
  const olderVersions = new Map<string, ActivityEntry>();
  const entry: ActivityEntry = {
    kind: "submit",
    name,
    legacy: [...(spec.legacy ?? []), ...older.map(([type]) => type)],
    olderVersions,
    authorization: spec.authorization ?? "policy",
    reach: { parentMayInitiate: spec.parentMayInitiate ?? false, servedInCallerOrg: spec.servedInCallerOrg ?? false },
    proxyForwarded: spec.proxyForwarded ?? false,
    subjects: (spec.subjects ?? none) as ActivityEntry["subjects"],
    policy: spec.policy,
    arrayLimits: spec.arrayLimits ?? NONE,
    appProofs: spec.appProofs as ActivityEntry["appProofs"],
    separateRateLimit: spec.separateRateLimit ?? false,
    run: spec.run as ActivityEntry["run"],
  };
  for (const [type, version] of older) olderVersions.set(type, asOlderVersion(entry, version as unknown as OlderVersion<SubmitName, ActivityType>));
  return entry;
}

/** The entry as an older version runs: each reader of the intent reads it through `params`; the outcome through `result`. */
function asOlderVersion(entry: ActivityEntry, version: OlderVersion<SubmitName, ActivityType>): ActivityEntry {
  const params = version.params as unknown as (older: Record<string, unknown>) => Record<string, unknown>;
  const toResult = version.result as unknown as ((current: Record<string, unknown>) => Record<string, unknown>) | undefined;
  const reshape = (outcome: ActivityOutcome): ActivityOutcome => (toResult && !("failAfterCommit" in outcome) ? toResult(outcome) : outcome);
  const appProofs = entry.appProofs;
  return {
    ...entry,
    olderVersions: new Map(),
    subjects: (older) => entry.subjects(params(older)),
    policy: entry.policy && version.policyParams ? { ...entry.policy, params: version.policyParams } : entry.policy,
    appProofs: appProofs && ((intent, result, activity) => appProofs(params(intent), result, activity)),
    run(ctx, older) {
      const current = (p: Record<string, unknown> = params(older)) => entry.run(ctx, p);
      const outcome = version.run ? (version.run as unknown as NonNullable<OlderVersion<SubmitName, ActivityType>["run"]>)(ctx, older as never, current as never) : current();
      if (outcome instanceof ChainEffect) return chainEffect(outcome.effect, (effected) => reshape(outcome.settle(effected)), outcome.abandon);
      return outcome instanceof Promise ? outcome.then(reshape) : reshape(outcome);
    },
  };
}

export function defineQuery<N extends QueryName>(
  name: N,
  spec: { servedInCallerOrg?: boolean; arrayLimits?: ArrayLimits; separateRateLimit?: boolean; run: (ctx: QueryContext, body: QueryBody<N>) => Record<string, unknown> },
): QueryEntry {
  return {
    kind: "query",
    name,
    reach: { parentMayInitiate: false, servedInCallerOrg: spec.servedInCallerOrg ?? false },
    arrayLimits: spec.arrayLimits ?? NONE,
    separateRateLimit: spec.separateRateLimit ?? false,
    run: spec.run as QueryEntry["run"],
  };
}

export function defineProxyEndpoint<N extends ProxyName>(
  name: N,
  spec: { emptyBody?: boolean; captcha?: boolean; arrayLimits?: ArrayLimits; run: (px: ProxyContext, body: ProxyBody<N>) => unknown },
): ProxyEntry {
  return { kind: "proxy", name, emptyBody: spec.emptyBody ?? false, captcha: spec.captcha ?? false, arrayLimits: spec.arrayLimits ?? NONE, run: spec.run as ProxyEntry["run"] };
}

/** Declares a published operation not emulated, with why (`reason` completes "… is routed but not emulated: "). */
export function defineNotEmulated<N extends SubmitName | QueryName>(
  name: N,
  reason: string,
  spec: { policy?: PolicySpec<N extends SubmitName ? ActivityParams<N> : never> } = {},
): NotEmulatedEntry {
  return { kind: "not-emulated", name, reason, policy: spec.policy };
}
