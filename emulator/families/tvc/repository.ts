/**
 * TVC records (create_tvc_app, create_tvc_deployment, create_tvc_manifest_approvals and the
 * lifecycle activities): operators, immutable operator sets, apps, deployments with the
 * manifest written for each, and the operators' manifest approvals; quorum keys with their
 * sealed seed and encrypted Shamir shares, and the shares operators post to a deployment.
 * The emulator builds and runs nothing.
 */
import type { Db } from "../../core/store/db.js";
import { prep } from "../../core/store/statements.js";
import { insertRow, rowMapper, updateRow } from "../../core/store/rows.js";

declare module "../../core/store/index.js" {
  /** This family's repositories on the store (made by its declaration's `repositories`). */
  interface FamilyRepositories {
    tvc: Tvc;
  }
}

export type TvcOperatorRow = {
  id: string;
  orgId: string;
  name: string;
  /** QuorumOS form: encryption ‖ signing points (130 bytes), or one SEC1 point, hex. */
  publicKey: string;
  /** EXTERNAL_KEY (a key the caller gave) or ORG_WALLET_ACCOUNT (create_tvc_operator); null on rows older than the column. */
  keySource?: "EXTERNAL_KEY" | "ORG_WALLET_ACCOUNT" | null;
  /** For ORG_WALLET_ACCOUNT: the wallet and the paths of its encryption and signing accounts (CURVE_P256). */
  walletId?: string | null;
  encryptPath?: string | null;
  signPath?: string | null;
  createdAt: number;
  updatedAt: number;
};

export type TvcQuorumKeyRow = {
  id: string;
  orgId: string;
  /** QuorumOS form: encryption ‖ signing points (130 bytes), hex. */
  publicKey: string;
  threshold: number;
  /** The operators holding one share each, in share order (share i has x = i + 1). */
  operatorIds: string[];
  /** The 32-byte QuorumOS master seed, sealed. */
  seedSealed: string;
  createdAt: number;
  updatedAt: number;
};

export type TvcQuorumKeyShareRow = {
  id: string;
  orgId: string;
  quorumKeyId: string;
  operatorId: string;
  /** The Shamir share in QuorumOS's P-256 envelope to the operator's encryption key, hex. */
  encryptedShare: string;
  createdAt: number;
  updatedAt: number;
};

export type TvcProvisioningShareRow = {
  id: string;
  orgId: string;
  deploymentId: string;
  operatorId: string;
  /** The provisioning enclave's ephemeral key the share was encrypted to, hex. */
  ephemeralPublicKey: string;
  reEncryptedShare: string;
  signature: string;
  createdAt: number;
  updatedAt: number;
};

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
const quorumKeys = rowMapper<TvcQuorumKeyRow>({ json: ["operatorIds"] });
const quorumKeyShares = rowMapper<TvcQuorumKeyShareRow>();
const provisioningShares = rowMapper<TvcProvisioningShareRow>();
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

  operators(orgId: string): TvcOperatorRow[] {
    return operators.readAll(prep(this.db, "SELECT * FROM tvc_operators WHERE org_id = ? ORDER BY created_at, rowid").all(orgId));
  }

  quorumKeys(orgId: string): TvcQuorumKeyRow[] {
    return quorumKeys.readAll(prep(this.db, "SELECT * FROM tvc_quorum_keys WHERE org_id = ? ORDER BY created_at, rowid").all(orgId));
  }

  quorumKeyWithPublicKey(orgId: string, publicKey: string): TvcQuorumKeyRow | undefined {
    return quorumKeys.read(prep(this.db, "SELECT * FROM tvc_quorum_keys WHERE org_id = ? AND public_key = ?").get(orgId, publicKey));
  }

  insertQuorumKey(k: TvcQuorumKeyRow): void {
    insertRow(this.db, "tvc_quorum_keys", quorumKeys, k);
  }

  sharesOf(quorumKeyId: string): TvcQuorumKeyShareRow[] {
    return quorumKeyShares.readAll(prep(this.db, "SELECT * FROM tvc_quorum_key_shares WHERE quorum_key_id = ? ORDER BY rowid").all(quorumKeyId));
  }

  insertQuorumKeyShare(s: TvcQuorumKeyShareRow): void {
    insertRow(this.db, "tvc_quorum_key_shares", quorumKeyShares, s);
  }

  provisioningSharesOf(deploymentId: string): TvcProvisioningShareRow[] {
    return provisioningShares.readAll(prep(this.db, "SELECT * FROM tvc_provisioning_shares WHERE deployment_id = ? ORDER BY created_at, rowid").all(deploymentId));
  }

  insertProvisioningShare(s: TvcProvisioningShareRow): void {
    insertRow(this.db, "tvc_provisioning_shares", provisioningShares, s);
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
