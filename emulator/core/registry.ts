/**
 * The registry: every emulated operation of the coordinator (activities and queries) and of
 * the auth proxy, and those declared not emulated, composed once from the entries the
 * families declare (their `operations`). The composition root (emulator/families.ts) composes
 * it and index.ts puts it in the runtime, where the engine, both routers, the proxy, the 501
 * answer and /openapi.json read it (`rt.registry`).
 */
import { coordinator, proxy, type OperationContract } from "../../contracts/index.js";
import { acceptingOnly, legacyVariant } from "../../contracts/legacy.js";
import { v1ActivityType } from "../../contracts/generated/public-api.js";
import type { ActivityEntry, CatalogEntry, NotEmulatedEntry, OperationEntry, ProxyEntry, QueryEntry, Registry } from "./vocabulary/define.js";
import { NOT_YET } from "./vocabulary/not-emulated.js";
import { RESIDUAL_TAXONOMY, type ActivityPolicy } from "../policy/activity-taxonomy.js";

/** The registry as composed, with what its own tests read besides (`unroutedEntries`, `policyByType`). */
export type ComposedRegistry = Registry & {
  /** Entries whose operation the published contract does not route (a failing registry test lists them). */
  unroutedEntries(): CatalogEntry[];
  /** Activity type (without `ACTIVITY_TYPE_`) -> what policies see of it. */
  policyByType: ReadonlyMap<string, ActivityPolicy>;
};

/** The contract path of an entry. */
export function pathOf(e: OperationEntry): string {
  return e.kind === "proxy" ? `/v1/${e.name}` : `/public/v1/${e.kind}/${e.name}`;
}

/** The contract of a not-emulated operation. */
function contractOf(e: NotEmulatedEntry): OperationContract | undefined {
  return coordinator[`/public/v1/submit/${e.name}`] ?? coordinator[`/public/v1/query/${e.name}`];
}

const TYPE_PREFIX = "ACTIVITY_TYPE_";

/** The registry of these entries (every family's, in the families' order): an operation defined twice is refused. */
export function composeRegistry(entries: readonly CatalogEntry[]): ComposedRegistry {
  function index<E extends CatalogEntry>(kind: E["kind"]): ReadonlyMap<string, E> {
    const map = new Map<string, E>();
    for (const e of entries) {
      if (e.kind !== kind) continue;
      if (map.has(e.name)) throw new Error(`operation registry: ${kind} ${e.name} is defined twice`);
      map.set(e.name, e as E);
    }
    return map;
  }

  const activities: ReadonlyMap<string, ActivityEntry> = index<ActivityEntry>("submit");
  const queries: ReadonlyMap<string, QueryEntry> = index<QueryEntry>("query");
  const endpoints: ReadonlyMap<string, ProxyEntry> = index<ProxyEntry>("proxy");
  /** The published operations declared not emulated, by name; none of them has an entry. */
  const notEmulated: ReadonlyMap<string, NotEmulatedEntry> = (() => {
    const map = index<NotEmulatedEntry>("not-emulated");
    for (const name of map.keys()) if (activities.has(name) || queries.has(name)) throw new Error(`operation registry: ${name} is both emulated and declared not emulated`);
    return map;
  })();

  /** Why an operation without an entry is not emulated (a generic reason when none is declared). */
  function notEmulatedReason(name: string): string {
    return notEmulated.get(name)?.reason ?? NOT_YET;
  }

  /** The registry entry behind a routed operation, if it is emulated. */
  function entryFor(kind: "submit" | "query" | "proxy", name: string): OperationEntry | undefined {
    return (kind === "submit" ? activities : kind === "query" ? queries : endpoints).get(name);
  }

  /** Every activity type the auth proxy submits as its proxy user (current and accepted older versions), sorted: the same whatever the families' order. */
  const proxyForwardedActivityTypes: readonly string[] = [...activities.values()]
    .filter((e) => e.proxyForwarded)
    .flatMap((e) => [coordinator[pathOf(e)]!.activityType!, ...e.legacy])
    .sort();

  /** Entries whose operation the published contract does not route (a failing registry test lists them). */
  function unroutedEntries(): CatalogEntry[] {
    return entries.filter((e) => !(e.kind === "not-emulated" ? contractOf(e) : e.kind === "proxy" ? proxy[pathOf(e)] : coordinator[pathOf(e)]));
  }

  /**
   * The one place an activity type is read against a submit operation: its entry, and the contract
   * read for that type (the operation itself for its current type, or the older version or SDK
   * spelling its entry accepts, with the entry as that older version runs). A type the operation
   * does not accept is read by a contract whose schema refuses it naming `type` and every type
   * the path accepts.
   */
  function resolveActivity(op: OperationContract, activityType: unknown): { op: OperationContract; entry: ActivityEntry | undefined; accepted: boolean } {
    const entry = activities.get(op.name);
    if (activityType === undefined || activityType === op.activityType) return { op, entry, accepted: true };
    const variant = entry && typeof activityType === "string" && legacyVariant(op, activityType, entry.legacy, entry.olderVersions.has(activityType));
    if (variant) return { op: variant, entry: entry.olderVersions.get(activityType as string) ?? entry, accepted: true };
    return { op: acceptingOnly(op, [op.activityType!, ...(entry?.legacy ?? [])]), entry, accepted: false };
  }

  /** Activity type -> the entries that name it (its operation's current type, or one of its `legacy` types), in the families' order. */
  const entriesByType = new Map<string, ActivityEntry[]>();
  for (const e of activities.values()) {
    for (const t of [coordinator[pathOf(e)]?.activityType, ...e.legacy]) if (t) entriesByType.set(t, [...(entriesByType.get(t) ?? []), e]);
  }

  /** The submit operation (contract read for that type) and entry behind an activity type, older types included. */
  function operationForActivityType(activityType: string): { op: OperationContract; entry: ActivityEntry } | undefined {
    for (const e of entriesByType.get(activityType) ?? []) {
      const { op, entry, accepted } = resolveActivity(coordinator[pathOf(e)]!, activityType);
      if (accepted) return { op, entry: entry! };
    }
    return undefined;
  }

  /**
   * Activity type (without `ACTIVITY_TYPE_`) → what policies see of it: each entry's `policy`
   * for its current type and the documented older types it accepts (an undocumented SDK spelling
   * is recorded as the current type), a not-emulated activity's, then the taxonomy's rows for
   * types no entry stands for.
   */
  const policyByType: ReadonlyMap<string, ActivityPolicy> = (() => {
    const documented = new Set<string>(v1ActivityType().options);
    const m = new Map<string, ActivityPolicy>();
    for (const e of activities.values()) {
      if (!e.policy) continue;
      const types = [coordinator[pathOf(e)]!.activityType!, ...e.legacy.filter((t) => documented.has(t))];
      for (const t of types) m.set(t.slice(TYPE_PREFIX.length), e.olderVersions.get(t)?.policy ?? e.policy);
    }
    for (const e of notEmulated.values()) {
      const type = contractOf(e)?.activityType;
      if (e.policy && type) m.set(type.slice(TYPE_PREFIX.length), e.policy);
    }
    for (const [t, policy] of RESIDUAL_TAXONOMY) {
      if (m.has(t)) throw new Error(`activity taxonomy: ${t} has an entry; remove its row from RESIDUAL_TAXONOMY`);
      m.set(t, policy);
    }
    return m;
  })();

  /** What policies see of an activity type (with or without `ACTIVITY_TYPE_`), if anything. */
  function policyOf(activityType: string): ActivityPolicy | undefined {
    return policyByType.get(activityType.startsWith(TYPE_PREFIX) ? activityType.slice(TYPE_PREFIX.length) : activityType);
  }

  return { activities, queries, endpoints, entryFor, resolveActivity, operationForActivityType, proxyForwardedActivityTypes, notEmulated, notEmulatedReason, policyOf, unroutedEntries, policyByType };
}
