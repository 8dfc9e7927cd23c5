/** Wire forms of TVC records: apps, deployments, operator sets, operators, quorum keys, manifests, approvals. */
import { hexToBytes } from "@noble/hashes/utils.js";
import { toTimestamp } from "../../core/clock.js";
import type { Store } from "../../core/store/index.js";
import type { TvcAppRow, TvcApprovalRow, TvcDeploymentRow, TvcOperatorRow, TvcQuorumKeyRow } from "./repository.js";
import { operatorKeys } from "./operator-keys.js";
import type { Wire } from "../../../contracts/wire.js";
import { manifestBytesBase64 } from "./manifest.js";

/** The documented public ingress domain of an app. Nothing is served there by the emulator. */
export const publicDomainOf = (appId: string): string => `app-${appId}.turnkey.cloud`;

const stamps = (r: { createdAt: number; updatedAt: number }) => ({ createdAt: toTimestamp(r.createdAt), updatedAt: toTimestamp(r.updatedAt) });

export function renderOperator(o: TvcOperatorRow): Wire["v1TvcOperator"] {
  return { id: o.id, name: o.name, publicKey: o.publicKey, ...stamps(o), ...operatorKeys(o), ...(o.keySource ? { keySource: o.keySource } : {}) };
}

export function renderQuorumKey(k: TvcQuorumKeyRow): Wire["v1TvcQuorumKey"] {
  return { id: k.id, publicKey: k.publicKey, threshold: k.threshold, operatorIds: k.operatorIds, ...stamps(k) };
}

export function renderOperatorSet(store: Store, orgId: string, setId: string): Wire["v1TvcOperatorSet"] {
  const s = store.tvc.operatorSet(orgId, setId)!;
  return {
    id: s.id,
    name: s.name,
    organizationId: s.orgId,
    operators: s.operatorIds.map((id) => renderOperator(store.tvc.operator(orgId, id)!)),
    threshold: s.threshold,
    ...stamps(s),
  };
}

export function renderApp(store: Store, a: TvcAppRow): Wire["v1TvcApp"] {
  return {
    id: a.id,
    organizationId: a.orgId,
    name: a.name,
    quorumPublicKey: a.quorumPublicKey,
    manifestSet: renderOperatorSet(store, a.orgId, a.manifestSetId),
    shareSet: renderOperatorSet(store, a.orgId, a.shareSetId),
    enableEgress: a.enableEgress,
    ...stamps(a),
    ...(a.liveDeploymentId ? { liveDeploymentId: a.liveDeploymentId } : {}),
    publicDomain: publicDomainOf(a.id),
    enableDebugModeDeployments: a.enableDebugModeDeployments,
  };
}

function renderApproval(store: Store, orgId: string, a: TvcApprovalRow): Wire["v1TvcOperatorApproval"] {
  return {
    id: a.id,
    manifestId: a.manifestId,
    operator: renderOperator(store.tvc.operator(orgId, a.operatorId)!),
    approval: Buffer.from(hexToBytes(a.signature)).toString("base64"),
    ...stamps(a),
  };
}

export function renderDeployment(store: Store, d: TvcDeploymentRow): Wire["v1TvcDeployment"] {
  const app = store.tvc.app(d.orgId, d.appId)!;
  return {
    id: d.id,
    organizationId: d.orgId,
    appId: d.appId,
    manifestSet: renderOperatorSet(store, d.orgId, app.manifestSetId),
    shareSet: renderOperatorSet(store, d.orgId, app.shareSetId),
    manifest: { id: d.manifestId, manifest: manifestBytesBase64(d.manifest), createdAt: toTimestamp(d.createdAt), updatedAt: toTimestamp(d.createdAt) },
    manifestApprovals: store.tvc.approvalsOf(d.manifestId).map((a) => renderApproval(store, d.orgId, a)),
    qosVersion: d.qosVersion,
    pivotContainer: {
      containerUrl: d.container.containerUrl,
      path: d.container.path,
      args: d.container.args,
      hasPullSecret: d.pullSecretSealed !== null,
      healthCheckType: d.container.healthCheckType as Wire["v1TvcHealthCheckType"],
      healthCheckPort: d.container.healthCheckPort,
      publicIngressPort: d.container.publicIngressPort,
    },
    ...stamps(d),
    delete: d.deleted,
    debugMode: d.debugMode,
  };
}
