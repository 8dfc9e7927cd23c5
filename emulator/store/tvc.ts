/**
 * TVC records (create_tvc_app, create_tvc_deployment, create_tvc_manifest_approvals and the
 * lifecycle activities): operators, immutable operator sets, apps, deployments with the
 * manifest written for each, and the operators' manifest approvals. Records only: the
 * emulator builds and runs nothing.
 */
import type { Db } from "./db.js";
import { prep } from "./statements.js";
import { insertRow, rowMapper, updateRow } from "./rows.js";

export type TvcOperatorRow = { id: string; orgId: string; name: string; publicKey: string; createdAt: number; updatedAt: number };

export type TvcOperatorSetRow = {
  id: string;
  orgId: string;
  name: string;
  threshold: number;
  /** Member operator ids, in the order the set was made with. */
  operatorIds: string[];
  createdAt: number;
  updatedAt: number;
};

export type TvcAppRow = {
  id: string;
  orgId: string;
  name: string;
  quorumPublicKey: string;
  manifestSetId: string;
  shareSetId: string;
  enableEgress: boolean;
  enableDebugModeDeployments: boolean;
  liveDeploymentId: string | null;
  createdAt: number;
  updatedAt: number;
};

/** The pivot container a deployment names (v1TvcContainerSpec without hasPullSecret). */
export type TvcContainer = {
  containerUrl: string;
  path: string;
  args: string[];
  healthCheckType: string;
  healthCheckPort: number;
  publicIngressPort: number;
};

export type TvcDeploymentRow = {
  id: string;
  orgId: string;
  appId: string;
  manifestId: string;
  /** The QOS manifest JSON written for this deployment (tvc/manifest.ts). */
  manifest: string;
  qosVersion: string;
  container: TvcContainer;
  /** The encrypted pull secret as the caller sent it, sealed at rest; null for a public image. */
  pullSecretSealed: string | null;
  debugMode: boolean;
  replicas: number;
  /** delete_tvc_deployment marks it; restore_tvc_deployment clears it. */
  deleted: boolean;
  createdAt: number;
  updatedAt: number;
};

export type TvcApprovalRow = {
  id: string;
  orgId: string;
  manifestId: string;
  operatorId: string;
  /** The operator's signature over the manifest, hex. */
  signature: string;
  createdAt: number;
  updatedAt: number;
};

const operators = rowMapper<TvcOperatorRow>();
const sets = rowMapper<TvcOperatorSetRow>({ json: ["operatorIds"] });
const apps = rowMapper<TvcAppRow>({ bool: ["enableEgress", "enableDebugModeDeployments"] });
const deployments = rowMapper<TvcDeploymentRow>({ json: ["container"], bool: ["debugMode", "deleted"] });
const approvals = rowMapper<TvcApprovalRow>();

export class Tvc {
  constructor(private readonly db: Db) {}

  operator(orgId: string, id: string): TvcOperatorRow | undefined {
    return operators.read(prep(this.db, "SELECT * FROM tvc_operators WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  insertOperator(o: TvcOperatorRow): void {
    insertRow(this.db, "tvc_operators", operators, o);
  }

  operatorSet(orgId: string, id: string): TvcOperatorSetRow | undefined {
    return sets.read(prep(this.db, "SELECT * FROM tvc_operator_sets WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  insertOperatorSet(s: TvcOperatorSetRow): void {
    insertRow(this.db, "tvc_operator_sets", sets, s);
  }

  app(orgId: string, id: string): TvcAppRow | undefined {
    return apps.read(prep(this.db, "SELECT * FROM tvc_apps WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  appNamed(orgId: string, name: string): TvcAppRow | undefined {
    return apps.read(prep(this.db, "SELECT * FROM tvc_apps WHERE org_id = ? AND name = ?").get(orgId, name));
  }

  apps(orgId: string): TvcAppRow[] {
    return apps.readAll(prep(this.db, "SELECT * FROM tvc_apps WHERE org_id = ? ORDER BY created_at, rowid").all(orgId));
  }

  insertApp(a: TvcAppRow): void {
    insertRow(this.db, "tvc_apps", apps, a);
  }

  updateApp(id: string, patch: Partial<TvcAppRow>): void {
    updateRow(this.db, "tvc_apps", apps, id, patch);
  }

  /** Deletes the app; its deployments and their approvals go with it (foreign keys cascade). */
  deleteApp(id: string): void {
    prep(this.db, "DELETE FROM tvc_apps WHERE id = ?").run(id);
  }

  deployment(orgId: string, id: string): TvcDeploymentRow | undefined {
    return deployments.read(prep(this.db, "SELECT * FROM tvc_deployments WHERE id = ? AND org_id = ?").get(id, orgId));
  }

  deploymentByManifest(orgId: string, manifestId: string): TvcDeploymentRow | undefined {
    return deployments.read(prep(this.db, "SELECT * FROM tvc_deployments WHERE manifest_id = ? AND org_id = ?").get(manifestId, orgId));
  }

  deploymentsOf(appId: string): TvcDeploymentRow[] {
    return deployments.readAll(prep(this.db, "SELECT * FROM tvc_deployments WHERE app_id = ? ORDER BY created_at, rowid").all(appId));
  }

  insertDeployment(d: TvcDeploymentRow): void {
    insertRow(this.db, "tvc_deployments", deployments, d);
  }

  updateDeployment(id: string, patch: Partial<TvcDeploymentRow>): void {
    updateRow(this.db, "tvc_deployments", deployments, id, patch);
  }

  approvalsOf(manifestId: string): TvcApprovalRow[] {
    return approvals.readAll(prep(this.db, "SELECT * FROM tvc_manifest_approvals WHERE manifest_id = ? ORDER BY created_at, rowid").all(manifestId));
  }

  insertApproval(a: TvcApprovalRow): void {
    insertRow(this.db, "tvc_manifest_approvals", approvals, a);
  }
}
