/**
 * TVC (Turnkey Verifiable Cloud) apps and deployments, kept as records the way LocalStack keeps
 * resources it does not execute: create_tvc_app (with its manifest and share operator sets),
 * create_tvc_deployment (writes the deployment's QOS manifest), create_tvc_manifest_approvals
 * (operators of the app's manifest set approve it), set_tvc_app_live_deployment (needs the
 * manifest set's threshold of approvals), delete_tvc_deployment / restore_tvc_deployment (a
 * deletion mark, as the record's `delete` flag says) and delete_tvc_app_and_deployments.
 *
 * Nothing is built, attested or run. Approval signatures are recorded, not verified: QuorumOS
 * checks them against the manifest when an enclave boots, and the emulator boots none.
 */
import { invalidArgument, notFound, withField } from "../../core/errors.js";
import { checkName, requireUuid } from "../../core/vocabulary/lookups.js";
import { defineActivity } from "../../core/vocabulary/define.js";
import type { ActivityContext } from "../../core/vocabulary/contexts.js";
import type { TvcDeploymentRow } from "./repository.js";
import { createOperatorSet, planOperatorSet } from "./operator-sets.js";
import { parseHexSignature, parseSha256Digest, parseTvcPublicKey } from "./keys.js";
import { checkQosVersion } from "./qos-versions.js";
import { writeManifest } from "./manifest.js";
import { requireTvcApp, requireTvcDeployment } from "./lookups.js";
import { quote } from "../../core/input-error.js";

const U32_MAX = 0xffffffff;

function requireApp(ctx: ActivityContext, appId: string, field: string) {
  return requireTvcApp(ctx.rt.store, ctx.org.id, appId, field);
}

function requireDeployment(ctx: ActivityContext, deploymentId: string, field: string) {
  return requireTvcDeployment(ctx.rt.store, ctx.org.id, deploymentId, field);
}

function intIn(value: string | undefined, field: string, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < min || n > max) throw invalidArgument(`${field} must be an integer from ${min} to ${max}, got ${value}`, field);
  return n;
}

/** Distinct operators of the app's manifest set that approved this deployment's manifest. */
export function approvalCount(ctx: ActivityContext, d: TvcDeploymentRow): { approved: number; threshold: number } {
  const { tvc } = ctx.rt.store;
  const set = tvc.operatorSet(ctx.org.id, tvc.app(ctx.org.id, d.appId)!.manifestSetId)!;
  const approvers = new Set(tvc.approvalsOf(d.manifestId).map((a) => a.operatorId));
  return { approved: set.operatorIds.filter((id) => approvers.has(id)).length, threshold: set.threshold };
}

export const tvcOperations = [
  defineActivity("create_tvc_app", {
    policy: { resource: "TVC_APP", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const { store } = ctx.rt;
      checkName(p.name, "parameters.name");
      if (store.tvc.appNamed(ctx.org.id, p.name)) throw invalidArgument(`a TVC app named ${quote(p.name)} already exists in this organization`, "parameters.name");
      const quorumPublicKey = withField(undefined, () => parseTvcPublicKey(p.quorumPublicKey, "parameters.quorumPublicKey"));
      const manifestPlan = planOperatorSet(store, ctx.org.id, "manifestSet", p.manifestSetId || undefined, p.manifestSetParams);
      const sharePlan = planOperatorSet(store, ctx.org.id, "shareSet", p.shareSetId || undefined, p.shareSetParams);
      const manifestSet = createOperatorSet(store, ctx.rt.random, ctx.org.id, manifestPlan, ctx.now);
      const shareSet = createOperatorSet(store, ctx.rt.random, ctx.org.id, sharePlan, ctx.now);
      const appId = ctx.rt.random.uuid();
      store.tvc.insertApp({
        id: appId,
        orgId: ctx.org.id,
        name: p.name,
        quorumPublicKey,
        manifestSetId: manifestSet.id,
        shareSetId: shareSet.id,
        enableEgress: p.enableEgress ?? false,
        enableDebugModeDeployments: p.enableDebugModeDeployments ?? false,
        liveDeploymentId: null,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      return {
        appId,
        manifestSetId: manifestSet.id,
        manifestSetOperatorIds: manifestSet.operatorIds,
        manifestSetThreshold: manifestSet.threshold,
        shareSetId: shareSet.id,
        shareSetOperatorIds: shareSet.operatorIds,
        shareSetThreshold: shareSet.threshold,
      };
    },
  }),

  defineActivity("create_tvc_deployment", {
    policy: { resource: "TVC_DEPLOYMENT", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const { store } = ctx.rt;
      const app = requireApp(ctx, p.appId, "parameters.appId");
      const qosVersion = withField(undefined, () => checkQosVersion(p.qosVersion, "parameters.qosVersion"));
      if (!p.pivotContainerImageUrl.trim() || /\s/.test(p.pivotContainerImageUrl))
        throw invalidArgument("parameters.pivotContainerImageUrl must be a container image reference without spaces", "parameters.pivotContainerImageUrl");
      if (!p.pivotPath.startsWith("/")) throw invalidArgument("parameters.pivotPath must be an absolute path inside the container", "parameters.pivotPath");
      const pivotHash = withField(undefined, () => parseSha256Digest(p.expectedPivotDigest, "parameters.expectedPivotDigest"));
      const nonce = intIn(p.nonce, "parameters.nonce", 0, U32_MAX) ?? Math.floor(ctx.now / 1000);
      const debugMode = p.debugMode ?? false;
      if (debugMode && !app.enableDebugModeDeployments)
        throw invalidArgument(`TVC app ${app.id} does not permit debug-mode deployments (enableDebugModeDeployments is set only when the app is created)`, "parameters.debugMode");
      const healthCheckPort = intIn(p.healthCheckPort, "parameters.healthCheckPort", 1, 65535)!;
      const publicIngressPort = intIn(p.publicIngressPort, "parameters.publicIngressPort", 1, 65535)!;
      const replicas = intIn(p.replicas, "parameters.replicas", 1, 1000) ?? 1;

      const members = (setId: string) => {
        const set = store.tvc.operatorSet(ctx.org.id, setId)!;
        return { threshold: set.threshold, members: set.operatorIds.map((id) => store.tvc.operator(ctx.org.id, id)!).map((o) => ({ alias: o.name, pubKey: o.publicKey })) };
      };
      const manifest = writeManifest({
        namespace: { name: app.name, nonce, quorumKey: app.quorumPublicKey },
        pivot: { hash: pivotHash, args: p.pivotArgs, debugMode },
        manifestSet: members(app.manifestSetId),
        shareSet: members(app.shareSetId),
        qosVersion,
      });
      const secret = p.pivotContainerEncryptedPullSecret;
      const deploymentId = ctx.rt.random.uuid();
      const manifestId = ctx.rt.random.uuid();
      store.tvc.insertDeployment({
        id: deploymentId,
        orgId: ctx.org.id,
        appId: app.id,
        manifestId,
        manifest,
        qosVersion,
        container: { containerUrl: p.pivotContainerImageUrl, path: p.pivotPath, args: p.pivotArgs, healthCheckType: p.healthCheckType, healthCheckPort, publicIngressPort },
        pullSecretSealed: secret ? store.sealer.seal(secret) : null,
        debugMode,
        replicas,
        deleted: false,
        createdAt: ctx.now,
        updatedAt: ctx.now,
      });
      return { deploymentId, manifestId };
    },
  }),

  defineActivity("create_tvc_manifest_approvals", {
    policy: { resource: "TVC_DEPLOYMENT", action: "CREATE", source: "inferred" },
    run(ctx, p) {
      const { tvc } = ctx.rt.store;
      requireUuid(p.manifestId, "parameters.manifestId", "TVC manifest");
      const d = tvc.deploymentByManifest(ctx.org.id, p.manifestId);
      if (!d) throw notFound(`TVC manifest not found: ${p.manifestId}`);
      if (d.deleted) throw invalidArgument(`TVC deployment ${d.id} of manifest ${p.manifestId} is deleted: restore it before approving its manifest`, "parameters.manifestId");
      if (!p.approvals.length) throw invalidArgument("parameters.approvals must not be empty", "parameters.approvals");
      const manifestSet = tvc.operatorSet(ctx.org.id, tvc.app(ctx.org.id, d.appId)!.manifestSetId)!;
      const already = new Set(tvc.approvalsOf(d.manifestId).map((a) => a.operatorId));
      const checked = p.approvals.map((a, i) => {
        const field = `parameters.approvals[${i}]`;
        requireUuid(a.operatorId, `${field}.operatorId`, "TVC operator");
        if (p.approvals.findIndex((b) => b.operatorId === a.operatorId) !== i) throw invalidArgument(`duplicate operator in parameters.approvals: ${a.operatorId}`, `${field}.operatorId`);
        if (!tvc.operator(ctx.org.id, a.operatorId)) throw notFound(`TVC operator not found: ${a.operatorId}`);
        if (!manifestSet.operatorIds.includes(a.operatorId))
          throw invalidArgument(`TVC operator ${a.operatorId} is not in the manifest set (${manifestSet.id}) of this deployment's app`, `${field}.operatorId`);
        if (already.has(a.operatorId)) throw invalidArgument(`TVC operator ${a.operatorId} has already approved manifest ${p.manifestId}`, `${field}.operatorId`);
        return { operatorId: a.operatorId, signature: withField(undefined, () => parseHexSignature(a.signature, `${field}.signature`)) };
      });
      const approvalIds = checked.map((a) => {
        const id = ctx.rt.random.uuid();
        tvc.insertApproval({ id, orgId: ctx.org.id, manifestId: d.manifestId, operatorId: a.operatorId, signature: a.signature, createdAt: ctx.now, updatedAt: ctx.now });
        return id;
      });
      return { approvalIds };
    },
  }),

  defineActivity("set_tvc_app_live_deployment", {
    policy: { resource: "TVC_APP", action: "UPDATE", source: "inferred" },
    run(ctx, p) {
      const d = requireDeployment(ctx, p.deploymentId, "parameters.deploymentId");
      if (d.deleted) throw invalidArgument(`TVC deployment ${d.id} is deleted: restore it before making it live`, "parameters.deploymentId");
      const { approved, threshold } = approvalCount(ctx, d);
      if (approved < threshold)
        throw invalidArgument(`TVC deployment ${d.id} has ${approved} of the ${threshold} manifest approvals its app's manifest set requires`, "parameters.deploymentId");
      ctx.rt.store.tvc.updateApp(d.appId, { liveDeploymentId: d.id, updatedAt: ctx.now });
      return {};
    },
  }),

  defineActivity("delete_tvc_deployment", {
    policy: { resource: "TVC_DEPLOYMENT", action: "DELETE", source: "inferred" },
    run(ctx, p) {
      const d = requireDeployment(ctx, p.deploymentId, "parameters.deploymentId");
      if (d.deleted) throw invalidArgument(`TVC deployment ${d.id} is already deleted`, "parameters.deploymentId");
      if (ctx.rt.store.tvc.app(ctx.org.id, d.appId)!.liveDeploymentId === d.id)
        throw invalidArgument(`TVC deployment ${d.id} is its app's live deployment: set another live deployment first, or delete the app`, "parameters.deploymentId");
      ctx.rt.store.tvc.updateDeployment(d.id, { deleted: true, updatedAt: ctx.now });
      return { deploymentId: d.id };
    },
  }),

  defineActivity("restore_tvc_deployment", {
    policy: { resource: "TVC_DEPLOYMENT", action: "UPDATE", source: "inferred" },
    run(ctx, p) {
      const d = requireDeployment(ctx, p.deploymentId, "parameters.deploymentId");
      if (!d.deleted) throw invalidArgument(`TVC deployment ${d.id} is not deleted`, "parameters.deploymentId");
      ctx.rt.store.tvc.updateDeployment(d.id, { deleted: false, updatedAt: ctx.now });
      return { deploymentId: d.id };
    },
  }),

  defineActivity("delete_tvc_app_and_deployments", {
    policy: { resource: "TVC_APP", action: "DELETE", source: "inferred" },
    run(ctx, p) {
      const app = requireApp(ctx, p.appId, "parameters.appId");
      ctx.rt.store.tvc.deleteApp(app.id);
      return { appId: app.id };
    },
  }),
];
