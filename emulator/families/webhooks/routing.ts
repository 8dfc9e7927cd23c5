/**
 * Who may receive an organization's events, kept per database until an organization or a
 * webhook endpoint changes (core/store/table-changes.ts): every activity's event asks, and the
 * answer rarely changes. Only committed state is kept: a read inside a transaction that has
 * changed those tables is answered but not kept.
 */
import type { Store } from "../../core/store/index.js";
import { keptReadings } from "../../core/store/table-changes.js";
import type { WebhookEndpointRow } from "./endpoints.js";
import { LEGACY_WEBHOOK_FEATURE } from "./legacy-feature.js";

export type OrgRouting = { id: string; parentId: string | null; legacy: string | null };

const keptOrgs = keptReadings<OrgRouting | null>("webhookRouting");
const keptEndpoints = keptReadings<WebhookEndpointRow[]>("webhookRouting");

/** The organization's parent and legacy webhook URL (FEATURE_NAME_WEBHOOK); undefined when there is no such organization. */
export function orgRouting(store: Store, orgId: string): OrgRouting | undefined {
  return keptOrgs(store.db, orgId, () => store.organizations.routing(orgId, LEGACY_WEBHOOK_FEATURE) ?? null) ?? undefined;
}

/** Active endpoints of these organizations (one, or an organization and its parent), oldest first. Not to be changed. */
export function activeEndpoints(store: Store, orgIds: string[]): readonly WebhookEndpointRow[] {
  return keptEndpoints(store.db, orgIds.join(" "), () => store.webhookEndpoints.activeIn(orgIds));
}
