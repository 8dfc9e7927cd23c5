/**
 * Who may receive an organization's events, kept per database until an organization or a
 * webhook endpoint changes (store/table-changes.ts): every activity's event asks, and the
 * answer rarely changes. Only committed state is kept: a read inside a transaction that has
 * changed those tables is answered but not kept.
 */
import type { Store } from "../store/index.js";
import { rowsCommitted, tableChanges } from "../store/table-changes.js";
import type { Db } from "../store/db.js";
import { WebhookEndpoints, type WebhookEndpointRow } from "./endpoints.js";
import { LEGACY_WEBHOOK_FEATURE } from "./legacy-feature.js";

export type OrgRouting = { id: string; parentId: string | null; legacy: string | null };

type Kept = { changes: number; orgs: Map<string, OrgRouting | null>; endpoints: Map<string, WebhookEndpointRow[]> };

const kept = new WeakMap<Db, Kept>();
/** Entries kept per map at most (a map that fills up is started afresh). */
const MAX_KEPT = 1_000;

function keptFor(db: Db): Kept | undefined {
  const changes = tableChanges(db, "webhookRouting");
  if (changes === undefined || !rowsCommitted(db, "webhookRouting")) return undefined;
  let k = kept.get(db);
  if (!k || k.changes !== changes) kept.set(db, (k = { changes, orgs: new Map(), endpoints: new Map() }));
  return k;
}

function remembered<V>(map: Map<string, V> | undefined, key: string, read: () => V): V {
  if (!map) return read();
  let value = map.get(key);
  if (value === undefined && !map.has(key)) {
    if (map.size >= MAX_KEPT) map.clear();
    map.set(key, (value = read()));
  }
  return value as V;
}

/** The organization's parent and legacy webhook URL (FEATURE_NAME_WEBHOOK); undefined when there is no such organization. */
export function orgRouting(store: Store, orgId: string): OrgRouting | undefined {
  return remembered(keptFor(store.db)?.orgs, orgId, () => store.organizations.routing(orgId, LEGACY_WEBHOOK_FEATURE) ?? null) ?? undefined;
}

/** Active endpoints of these organizations (one, or an organization and its parent), oldest first. Not to be changed. */
export function activeEndpoints(store: Store, orgIds: string[]): readonly WebhookEndpointRow[] {
  return remembered(keptFor(store.db)?.endpoints, orgIds.join(" "), () => new WebhookEndpoints(store.db).activeIn(orgIds));
}
