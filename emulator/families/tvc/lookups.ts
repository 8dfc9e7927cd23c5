/** The organization's TVC app or deployment an id names, or the not-found error both activities and queries answer. */
import { notFound } from "../../core/errors.js";
import { requireUuid } from "../../core/vocabulary/lookups.js";
import type { Store } from "../../core/store/index.js";
import type { TvcAppRow, TvcDeploymentRow } from "./repository.js";

export function requireTvcApp(store: Store, orgId: string, appId: string, field: string): TvcAppRow {
  requireUuid(appId, field, "TVC app");
  const app = store.tvc.app(orgId, appId);
  if (!app) throw notFound(`TVC app not found: ${appId}`);
  return app;
}

export function requireTvcDeployment(store: Store, orgId: string, deploymentId: string, field: string): TvcDeploymentRow {
  requireUuid(deploymentId, field, "TVC deployment");
  const d = store.tvc.deployment(orgId, deploymentId);
  if (!d) throw notFound(`TVC deployment not found: ${deploymentId}`);
  return d;
}
