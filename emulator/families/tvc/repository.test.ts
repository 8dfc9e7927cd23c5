import { afterEach, describe, expect, it } from "vitest";
import type { Store } from "../../core/store/index.js";
import { openStore } from "../../families.js";

let store: Store;
afterEach(() => store?.close());

function seed(): Store {
  store = openStore(undefined, { sealingKey: "11".repeat(32) });
  const t = 1_000;
  store.organizations.insert({ id: "org", name: "o", parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt: t, updatedAt: t });
  store.tvc.insertOperator({ id: "op", orgId: "org", name: "alice", publicKey: "04aa", createdAt: t, updatedAt: t });
  store.tvc.insertOperatorSet({ id: "set", orgId: "org", name: "s", threshold: 1, operatorIds: ["op"], createdAt: t, updatedAt: t });
  store.tvc.insertApp({ id: "app", orgId: "org", name: "a", quorumPublicKey: "04bb", manifestSetId: "set", shareSetId: "set", enableEgress: false, enableDebugModeDeployments: true, liveDeploymentId: null, createdAt: t, updatedAt: t });
  store.tvc.insertDeployment({
    id: "dep",
    orgId: "org",
    appId: "app",
    manifestId: "man",
    manifest: "{}",
    qosVersion: "v1.0.0",
    container: { containerUrl: "img", path: "/p", args: ["--x"], healthCheckType: "TVC_HEALTH_CHECK_TYPE_HTTP", healthCheckPort: 1, publicIngressPort: 2 },
    pullSecretSealed: null,
    debugMode: true,
    replicas: 1,
    deleted: false,
    createdAt: t,
    updatedAt: t,
  });
  store.tvc.insertApproval({ id: "ap", orgId: "org", manifestId: "man", operatorId: "op", signature: "ab", createdAt: t, updatedAt: t });
  return store;
}

const count = (table: string) => (store.db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;

describe("TVC store", () => {
  it("round-trips records (JSON and boolean columns) and scopes them by organization", () => {
    seed();
    expect(store.tvc.deployment("org", "dep")).toMatchObject({ debugMode: true, deleted: false, container: { args: ["--x"], healthCheckPort: 1 } });
    expect(store.tvc.deployment("other", "dep")).toBeUndefined();
    expect(store.tvc.deploymentByManifest("org", "man")?.id).toBe("dep");
    expect(store.tvc.operatorSet("org", "set")?.operatorIds).toEqual(["op"]);
    store.tvc.updateDeployment("dep", { deleted: true });
    expect(store.tvc.deployment("org", "dep")?.deleted).toBe(true);
  });

  it("deleting an app takes its deployments and approvals, not the operators or sets", () => {
    seed();
    store.tvc.deleteApp("app");
    expect([count("tvc_apps"), count("tvc_deployments"), count("tvc_manifest_approvals")]).toEqual([0, 0, 0]);
    expect([count("tvc_operators"), count("tvc_operator_sets")]).toEqual([1, 1]);
  });

  it("an organization's removal cascades to every TVC table", () => {
    seed();
    store.db.prepare("DELETE FROM organizations WHERE id = ?").run("org");
    for (const t of ["tvc_operators", "tvc_operator_sets", "tvc_apps", "tvc_deployments", "tvc_manifest_approvals"]) expect(count(t)).toBe(0);
  });

  it("one approval per operator and manifest", () => {
    seed();
    expect(() => store.tvc.insertApproval({ id: "ap2", orgId: "org", manifestId: "man", operatorId: "op", signature: "cd", createdAt: 1, updatedAt: 1 })).toThrow(/UNIQUE/);
  });
});
