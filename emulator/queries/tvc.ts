/** get_tvc_app, list_tvc_apps, get_tvc_deployment, list_tvc_app_deployments, get_tvc_qos_versions: the organization's own TVC records. */
import { notFound } from "../errors.js";
import { requireUuid } from "../activities/lookups.js";
import { defineQuery } from "../operations/define.js";
import { renderApp, renderDeployment } from "../tvc/views.js";
import { AVAILABLE_QOS_VERSIONS, EMULATOR_QOS_VERSION } from "../tvc/qos-versions.js";
import type { QueryContext } from "./types.js";

function requireApp(ctx: QueryContext, appId: string, field: string) {
  requireUuid(appId, field, "TVC app");
  const app = ctx.rt.store.tvc.app(ctx.org.id, appId);
  if (!app) throw notFound(`TVC app not found: ${appId}`);
  return app;
}

export const tvcQueryOperations = [
  defineQuery("get_tvc_app", {
    run(ctx, b) {
      return { tvcApp: renderApp(ctx.rt.store, requireApp(ctx, b.tvcAppId, "tvcAppId")) };
    },
  }),
  defineQuery("list_tvc_apps", {
    run(ctx) {
      return { tvcApps: ctx.rt.store.tvc.apps(ctx.org.id).map((a) => renderApp(ctx.rt.store, a)) };
    },
  }),
  defineQuery("get_tvc_deployment", {
    run(ctx, b) {
      requireUuid(b.deploymentId, "deploymentId", "TVC deployment");
      const d = ctx.rt.store.tvc.deployment(ctx.org.id, b.deploymentId);
      if (!d) throw notFound(`TVC deployment not found: ${b.deploymentId}`);
      return { tvcDeployment: renderDeployment(ctx.rt.store, d) };
    },
  }),
  defineQuery("list_tvc_app_deployments", {
    run(ctx, b) {
      const app = requireApp(ctx, b.appId, "appId");
      return { tvcDeployments: ctx.rt.store.tvc.deploymentsOf(app.id).map((d) => renderDeployment(ctx.rt.store, d)) };
    },
  }),
  defineQuery("get_tvc_qos_versions", {
    run() {
      return { availableVersions: [...AVAILABLE_QOS_VERSIONS], latestVersion: EMULATOR_QOS_VERSION };
    },
  }),
];
