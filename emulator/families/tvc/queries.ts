/**
 * get_tvc_app, list_tvc_apps, get_tvc_deployment, list_tvc_app_deployments, get_tvc_qos_versions,
 * list_tvc_operators, list_tvc_quorum_keys: the organization's own TVC records. The queries
 * about a running enclave, and image validation, are not emulated.
 */
import { defineNotEmulated, defineQuery } from "../../core/vocabulary/define.js";
import { TVC_RUNTIME } from "../../core/vocabulary/not-emulated.js";
import { renderApp, renderDeployment, renderOperator, renderQuorumKey } from "./views.js";
import { requireTvcApp, requireTvcDeployment } from "./lookups.js";
import { AVAILABLE_QOS_VERSIONS, EMULATOR_QOS_VERSION } from "./qos-versions.js";

export const tvcQueryOperations = [
  defineQuery("get_tvc_app", {
    run(ctx, b) {
      return { tvcApp: renderApp(ctx.rt.store, requireTvcApp(ctx.rt.store, ctx.org.id, b.tvcAppId, "tvcAppId")) };
    },
  }),
  defineQuery("list_tvc_apps", {
    run(ctx) {
      return { tvcApps: ctx.rt.store.tvc.apps(ctx.org.id).map((a) => renderApp(ctx.rt.store, a)) };
    },
  }),
  defineQuery("get_tvc_deployment", {
    run(ctx, b) {
      return { tvcDeployment: renderDeployment(ctx.rt.store, requireTvcDeployment(ctx.rt.store, ctx.org.id, b.deploymentId, "deploymentId")) };
    },
  }),
  defineQuery("list_tvc_app_deployments", {
    run(ctx, b) {
      const app = requireTvcApp(ctx.rt.store, ctx.org.id, b.appId, "appId");
      return { tvcDeployments: ctx.rt.store.tvc.deploymentsOf(app.id).map((d) => renderDeployment(ctx.rt.store, d)) };
    },
  }),
  defineQuery("get_tvc_qos_versions", {
    run() {
      return { availableVersions: [...AVAILABLE_QOS_VERSIONS], latestVersion: EMULATOR_QOS_VERSION };
    },
  }),
  defineQuery("list_tvc_operators", {
    run(ctx) {
      return { tvcOperators: ctx.rt.store.tvc.operators(ctx.org.id).map(renderOperator) };
    },
  }),
  defineQuery("list_tvc_quorum_keys", {
    run(ctx) {
      return { tvcQuorumKeys: ctx.rt.store.tvc.quorumKeys(ctx.org.id).map(renderQuorumKey) };
    },
  }),
  defineNotEmulated("get_app_status", `${TVC_RUNTIME}, so it has no live replica status to report (ready or desired replicas of a running cluster)`),
  defineNotEmulated("get_tvc_deployment_debug_logs", `${TVC_RUNTIME}, so a deployment has no application logs`),
  defineNotEmulated(
    "get_tvc_deployment_provisioning_details",
    `${TVC_RUNTIME}, so a deployment never awaits provisioning: there is no provisioning enclave's attestation document or manifest envelope to return`,
  ),
  defineNotEmulated("validate_tvc_image", "it would pull the container image from its registry to resolve its digest, and the emulator works offline"),
];
