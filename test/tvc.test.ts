/**
 * TVC apps and deployments through @turnkey/sdk-server: records and their lifecycle (create,
 * get, list, manifest approvals against the manifest set's threshold, set live, delete,
 * restore, delete the app), bad input refused naming the field with nothing written, policies
 * and the root quorum, and the operations that would need a running enclave (501 with reason).
 */
import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, randomBytes } from "@noble/hashes/utils.js";
import type { RunningEmulator } from "../emulator/index.js";
import { newP256KeyPair, rawPost, sdkClient, startTestEmulator, storeCounts, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();

/** A QuorumOS-style operator key pair: public key = encryption point ‖ signing point (130 bytes). */
function operatorKey(): { publicKey: string; signingKey: Uint8Array } {
  const enc = p256.utils.randomSecretKey();
  const sign = p256.utils.randomSecretKey();
  return { publicKey: bytesToHex(p256.getPublicKey(enc, false)) + bytesToHex(p256.getPublicKey(sign, false)), signingKey: sign };
}

const digest = () => bytesToHex(randomBytes(32));
let appCount = 0;
const appName = () => `app-${++appCount}-${bytesToHex(randomBytes(3))}`;

function newAppParams(over: Record<string, unknown> = {}) {
  const ops = [operatorKey(), operatorKey(), operatorKey()];
  return {
    ops,
    params: {
      name: appName(),
      quorumPublicKey: operatorKey().publicKey,
      manifestSetParams: { name: "manifest set", threshold: "2", newOperators: [{ name: "alice", publicKey: ops[0]!.publicKey }, { name: "bob", publicKey: ops[1]!.publicKey }] },
      shareSetParams: { name: "share set", threshold: "1", newOperators: [{ name: "carol", publicKey: ops[2]!.publicKey }] },
      ...over,
    },
  };
}

function deploymentParams(appId: string, over: Record<string, unknown> = {}) {
  return {
    appId,
    qosVersion: "v0.0.0-emulator",
    pivotContainerImageUrl: "ghcr.io/example/pivot:1.2.3",
    pivotPath: "/usr/local/bin/pivot",
    pivotArgs: ["--port", "3000"],
    expectedPivotDigest: digest(),
    healthCheckType: "TVC_HEALTH_CHECK_TYPE_HTTP" as const,
    healthCheckPort: 3001,
    publicIngressPort: 3000,
    ...over,
  };
}

const decodeManifest = (b64: string) => JSON.parse(Buffer.from(b64, "base64").toString("utf8")) as Record<string, any>;

describe("TVC apps and deployments", () => {
  it("create, read, approve, set live, delete, restore, delete the app", async () => {
    const c = sdkClient(emu);
    const { ops, params } = newAppParams({ enableEgress: true });
    const created = await c.createTvcApp(params as never);
    expect(created.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(created.manifestSetOperatorIds).toHaveLength(2);
    expect(Number(created.manifestSetThreshold)).toBe(2);
    expect(created.shareSetOperatorIds).toHaveLength(1);
    expect(Number(created.shareSetThreshold)).toBe(1);

    const { tvcApp } = await c.getTvcApp({ tvcAppId: created.appId });
    expect(tvcApp).toMatchObject({
      id: created.appId,
      organizationId: emu.info.organizationId,
      name: params.name,
      quorumPublicKey: params.quorumPublicKey,
      enableEgress: true,
      enableDebugModeDeployments: false,
      publicDomain: `app-${created.appId}.turnkey.cloud`,
      manifestSet: { id: created.manifestSetId, name: "manifest set", threshold: 2 },
      shareSet: { id: created.shareSetId, name: "share set", threshold: 1 },
    });
    expect(tvcApp.liveDeploymentId).toBeUndefined();
    expect(tvcApp.manifestSet.operators.map((o) => [o.id, o.name, o.publicKey])).toEqual([
      [created.manifestSetOperatorIds[0], "alice", ops[0]!.publicKey],
      [created.manifestSetOperatorIds[1], "bob", ops[1]!.publicKey],
    ]);
    expect((await c.getTvcApps({})).tvcApps.map((a) => a.id)).toContain(created.appId);

    // Another app may reuse both operator sets by id.
    const reuse = await c.createTvcApp({ name: appName(), quorumPublicKey: params.quorumPublicKey, manifestSetId: created.manifestSetId, shareSetId: created.shareSetId });
    expect([reuse.manifestSetId, reuse.shareSetId]).toEqual([created.manifestSetId, created.shareSetId]);
    expect(reuse.manifestSetOperatorIds).toEqual(created.manifestSetOperatorIds);

    // A deployment: its record, and the QOS manifest written from the request and the app's sets.
    const dp = deploymentParams(created.appId, { nonce: 42, pivotContainerEncryptedPullSecret: "deadbeef".repeat(8) });
    const first = await c.createTvcDeployment(dp);
    expect(first.deploymentId).not.toBe(first.manifestId);
    const { tvcDeployment } = await c.getTvcDeployment({ deploymentId: first.deploymentId });
    expect(tvcDeployment).toMatchObject({
      id: first.deploymentId,
      appId: created.appId,
      organizationId: emu.info.organizationId,
      qosVersion: "v0.0.0-emulator",
      delete: false,
      debugMode: false,
      manifestApprovals: [],
      manifestSet: { id: created.manifestSetId },
      shareSet: { id: created.shareSetId },
      manifest: { id: first.manifestId },
      pivotContainer: { containerUrl: dp.pivotContainerImageUrl, path: dp.pivotPath, args: dp.pivotArgs, hasPullSecret: true, healthCheckType: "TVC_HEALTH_CHECK_TYPE_HTTP", healthCheckPort: 3001, publicIngressPort: 3000 },
    });
    const manifest = decodeManifest(tvcDeployment.manifest.manifest);
    expect(manifest.namespace).toEqual({ name: params.name, nonce: 42, quorumKey: params.quorumPublicKey });
    expect(manifest.pivot).toMatchObject({ hash: dp.expectedPivotDigest, args: dp.pivotArgs, debugMode: false });
    expect(manifest.manifestSet).toEqual({ threshold: 2, members: [{ alias: "alice", pubKey: ops[0]!.publicKey }, { alias: "bob", pubKey: ops[1]!.publicKey }] });
    expect(manifest.shareSet).toEqual({ threshold: 1, members: [{ alias: "carol", pubKey: ops[2]!.publicKey }] });
    // The pull secret is sealed at rest.
    const stored = emu.runtime.store.db.prepare("SELECT pull_secret_sealed FROM tvc_deployments WHERE id = ?").get(first.deploymentId) as { pull_secret_sealed: string };
    expect(stored.pull_secret_sealed).not.toContain("deadbeef");

    // Going live needs the manifest set's threshold (2) of approvals.
    await expect(c.updateTvcAppLiveDeployment({ deploymentId: first.deploymentId })).rejects.toThrow(/has 0 of the 2 manifest approvals/);
    const manifestBytes = Buffer.from(tvcDeployment.manifest.manifest, "base64");
    const sign = (key: Uint8Array) => bytesToHex(p256.sign(sha256(manifestBytes), key, { prehash: false }));
    const aliceSig = sign(ops[0]!.signingKey);
    const a1 = await c.createTvcManifestApprovals({ manifestId: first.manifestId, approvals: [{ operatorId: created.manifestSetOperatorIds[0]!, signature: aliceSig }] });
    expect(a1.approvalIds).toHaveLength(1);
    await expect(c.updateTvcAppLiveDeployment({ deploymentId: first.deploymentId })).rejects.toThrow(/has 1 of the 2 manifest approvals/);
    await expect(c.createTvcManifestApprovals({ manifestId: first.manifestId, approvals: [{ operatorId: created.manifestSetOperatorIds[0]!, signature: aliceSig }] })).rejects.toThrow(/already approved/);
    await c.createTvcManifestApprovals({ manifestId: first.manifestId, approvals: [{ operatorId: created.manifestSetOperatorIds[1]!, signature: sign(ops[1]!.signingKey) }] });
    const approvals = (await c.getTvcDeployment({ deploymentId: first.deploymentId })).tvcDeployment.manifestApprovals;
    expect(approvals.map((a) => [a.id, a.manifestId, a.operator.name])).toEqual([
      [a1.approvalIds[0], first.manifestId, "alice"],
      [expect.any(String), first.manifestId, "bob"],
    ]);
    expect(bytesToHex(Buffer.from(approvals[0]!.approval, "base64"))).toBe(aliceSig);

    const live = await c.updateTvcAppLiveDeployment({ deploymentId: first.deploymentId });
    expect(live.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect((await c.getTvcApp({ tvcAppId: created.appId })).tvcApp.liveDeploymentId).toBe(first.deploymentId);
    await expect(c.deleteTvcDeployment({ deploymentId: first.deploymentId })).rejects.toThrow(/live deployment/);

    // A second deployment goes live; the first can then be deleted (marked) and restored.
    const second = await c.createTvcDeployment(deploymentParams(created.appId));
    await c.createTvcManifestApprovals({
      manifestId: second.manifestId,
      approvals: created.manifestSetOperatorIds.map((operatorId, i) => ({ operatorId, signature: bytesToHex(randomBytes(64 + i)) })),
    });
    await c.updateTvcAppLiveDeployment({ deploymentId: second.deploymentId });
    expect((await c.deleteTvcDeployment({ deploymentId: first.deploymentId })).deploymentId).toBe(first.deploymentId);
    await expect(c.deleteTvcDeployment({ deploymentId: first.deploymentId })).rejects.toThrow(/already deleted/);
    await expect(c.updateTvcAppLiveDeployment({ deploymentId: first.deploymentId })).rejects.toThrow(/is deleted/);
    await expect(c.createTvcManifestApprovals({ manifestId: first.manifestId, approvals: [{ operatorId: created.manifestSetOperatorIds[0]!, signature: "00" }] })).rejects.toThrow(/is deleted/);
    const listed = (await c.getTvcAppDeployments({ appId: created.appId })).tvcDeployments;
    expect(listed.map((d) => [d.id, d.delete])).toEqual([
      [first.deploymentId, true],
      [second.deploymentId, false],
    ]);
    expect((await c.restoreTvcDeployment({ deploymentId: first.deploymentId })).deploymentId).toBe(first.deploymentId);
    await expect(c.restoreTvcDeployment({ deploymentId: first.deploymentId })).rejects.toThrow(/is not deleted/);
    expect((await c.getTvcDeployment({ deploymentId: first.deploymentId })).tvcDeployment.delete).toBe(false);

    // Deleting the app removes it with its deployments; the reused operator sets stay.
    expect((await c.deleteTvcAppAndDeployments({ appId: created.appId })).appId).toBe(created.appId);
    await expect(c.getTvcApp({ tvcAppId: created.appId })).rejects.toThrow(/TVC app not found/);
    await expect(c.getTvcDeployment({ deploymentId: first.deploymentId })).rejects.toThrow(/TVC deployment not found/);
    await expect(c.getTvcAppDeployments({ appId: created.appId })).rejects.toThrow(/TVC app not found/);
    await expect(c.deleteTvcAppAndDeployments({ appId: created.appId })).rejects.toThrow(/TVC app not found/);
    expect((await c.getTvcApps({})).tvcApps.map((a) => a.id)).not.toContain(created.appId);
    expect((await c.getTvcApp({ tvcAppId: reuse.appId })).tvcApp.manifestSet.operators).toHaveLength(2);
  });

  it("debug-mode deployments only for apps created to allow them", async () => {
    const c = sdkClient(emu);
    const plain = await c.createTvcApp(newAppParams().params as never);
    await expect(c.createTvcDeployment(deploymentParams(plain.appId, { debugMode: true }))).rejects.toThrow(/does not permit debug-mode deployments/);
    const debug = await c.createTvcApp(newAppParams({ enableDebugModeDeployments: true }).params as never);
    const d = await c.createTvcDeployment(deploymentParams(debug.appId, { debugMode: true }));
    const { tvcDeployment } = await c.getTvcDeployment({ deploymentId: d.deploymentId });
    expect(tvcDeployment.debugMode).toBe(true);
    expect(decodeManifest(tvcDeployment.manifest.manifest).pivot.debugMode).toBe(true);
    expect((await c.getTvcApp({ tvcAppId: debug.appId })).tvcApp.enableDebugModeDeployments).toBe(true);
  });

  it("get_tvc_qos_versions lists the version deployments are recorded with", async () => {
    const v = await sdkClient(emu).getTvcQosVersions({});
    expect(v.availableVersions).toContain(v.latestVersion);
    const { appId } = await sdkClient(emu).createTvcApp(newAppParams().params as never);
    const d = await sdkClient(emu).createTvcDeployment(deploymentParams(appId, { qosVersion: v.latestVersion }));
    expect((await sdkClient(emu).getTvcDeployment({ deploymentId: d.deploymentId })).tvcDeployment.qosVersion).toBe(v.latestVersion);
  });
});

describe("TVC bad input: the field is named, nothing is written", () => {
  const unknown = "00000000-0000-4000-8000-000000000000";

  async function refused(call: () => Promise<unknown>, message: RegExp) {
    const before = storeCounts(emu);
    await expect(call()).rejects.toThrow(message);
    expect(storeCounts(emu)).toEqual(before);
  }

  it("create_tvc_app", async () => {
    const c = sdkClient(emu);
    const { params } = newAppParams();
    const existing = await c.createTvcApp(params as never);
    const op = operatorKey().publicKey;
    const set = (over: Record<string, unknown>) => ({ name: "s", threshold: "1", newOperators: [{ name: "o", publicKey: op }], ...over });
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: " " }, /parameters.name must not be empty/],
      [{ name: params.name }, /already exists/],
      [{ quorumPublicKey: "zz" }, /quorumPublicKey must be a hex-encoded P-256 public key/],
      [{ quorumPublicKey: "04" + "11".repeat(64) }, /not a valid P-256 public key/],
      [{ quorumPublicKey: "abcd" }, /33, 65 or 130/],
      [{ manifestSetParams: undefined }, /manifestSetParams is required when manifestSetId is empty/],
      [{ manifestSetId: existing.manifestSetId }, /give manifestSetId or manifestSetParams, not both/],
      [{ manifestSetParams: undefined, manifestSetId: unknown }, /TVC operator set not found/],
      [{ manifestSetParams: undefined, manifestSetId: "nope" }, /invalid TVC operator set UUID/],
      [{ manifestSetParams: set({ threshold: "2" }) }, /threshold must be between 1 and the number of operators in the set \(1\)/],
      [{ manifestSetParams: set({ threshold: "0" }) }, /threshold must be between 1/],
      [{ manifestSetParams: set({ newOperators: [] }) }, /needs at least one operator/],
      [{ manifestSetParams: set({ newOperators: [{ name: "a", publicKey: op }, { name: "b", publicKey: op }] }) }, /same public key/],
      [{ manifestSetParams: set({ newOperators: [{ name: "a", publicKey: "xyz" }] }) }, /newOperators\[0\].publicKey must be a hex-encoded/],
      [{ manifestSetParams: set({ newOperators: [{ name: "", publicKey: op }] }) }, /newOperators\[0\].name must not be empty/],
      [{ shareSetParams: set({ existingOperatorIds: [unknown] }) }, /TVC operator not found/],
      [{ shareSetParams: set({ existingOperatorIds: [existing.shareSetOperatorIds[0], existing.shareSetOperatorIds[0]] }) }, /duplicate value/],
    ];
    for (const [over, message] of cases) await refused(() => c.createTvcApp({ ...params, name: appName(), ...over } as never), message);

    // On the wire: 400 naming the field.
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_TVC_APP",
      timestampMs: String(Date.now()),
      organizationId: emu.info.organizationId,
      parameters: { ...params, name: appName(), shareSetParams: set({ threshold: "5" }) },
    });
    const r = await rawPost(emu, "/public/v1/submit/create_tvc_app", body);
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json.details)).toContain("parameters.shareSetParams.threshold");
  });

  it("create_tvc_deployment, approvals and the lifecycle activities", async () => {
    const c = sdkClient(emu);
    const app = await c.createTvcApp(newAppParams().params as never);
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ appId: unknown }, /TVC app not found/],
      [{ appId: "x" }, /invalid TVC app UUID/],
      [{ qosVersion: "latest" }, /qosVersion must be a QOS version/],
      [{ pivotContainerImageUrl: "has space" }, /pivotContainerImageUrl/],
      [{ pivotPath: "relative/bin" }, /pivotPath must be an absolute path/],
      [{ expectedPivotDigest: "abc" }, /expectedPivotDigest must be a SHA-256 digest/],
      [{ healthCheckPort: 0 }, /healthCheckPort must be an integer from 1 to 65535/],
      [{ publicIngressPort: 70000 }, /publicIngressPort must be an integer from 1 to 65535/],
      [{ replicas: 0 }, /replicas must be an integer from 1/],
      [{ nonce: 4294967296 }, /nonce must be an integer from 0 to 4294967295/],
    ];
    for (const [over, message] of cases) await refused(() => c.createTvcDeployment(deploymentParams(app.appId, over)), message);
    const r = await rawPost(emu, "/public/v1/submit/create_tvc_deployment", JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_TVC_DEPLOYMENT", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: deploymentParams(app.appId, { pivotPath: "x" }) }));
    expect(r.status).toBe(400);
    expect(JSON.stringify(r.json.details)).toContain("parameters.pivotPath");

    const d = await c.createTvcDeployment(deploymentParams(app.appId));
    const [alice, bob] = app.manifestSetOperatorIds as [string, string];
    const carol = app.shareSetOperatorIds[0]!;
    const approve = (manifestId: string, approvals: { operatorId: string; signature: string }[]) => () => c.createTvcManifestApprovals({ manifestId, approvals });
    await refused(approve(unknown, [{ operatorId: alice, signature: "ab" }]), /TVC manifest not found/);
    await refused(approve(d.manifestId, []), /approvals must not be empty/);
    await refused(approve(d.manifestId, [{ operatorId: unknown, signature: "ab" }]), /TVC operator not found/);
    await refused(approve(d.manifestId, [{ operatorId: carol, signature: "ab" }]), /is not in the manifest set/);
    await refused(approve(d.manifestId, [{ operatorId: alice, signature: "not hex" }]), /signature must be a non-empty hex-encoded signature/);
    await refused(approve(d.manifestId, [{ operatorId: alice, signature: "ab" }, { operatorId: alice, signature: "cd" }]), /duplicate operator/);
    // The whole request is refused when one approval is bad: the good one is not kept either.
    await refused(approve(d.manifestId, [{ operatorId: alice, signature: "ab" }, { operatorId: bob, signature: "" }]), /approvals\[1\].signature/);
    expect((await c.getTvcDeployment({ deploymentId: d.deploymentId })).tvcDeployment.manifestApprovals).toEqual([]);

    for (const call of [c.updateTvcAppLiveDeployment, c.deleteTvcDeployment, c.restoreTvcDeployment]) await refused(() => call({ deploymentId: unknown }), /TVC deployment not found/);
    await refused(() => c.deleteTvcAppAndDeployments({ appId: unknown }), /TVC app not found/);
    await expect(c.getTvcDeployment({ deploymentId: "nope" })).rejects.toThrow(/invalid TVC deployment UUID/);
    await expect(c.getTvcApp({ tvcAppId: unknown })).rejects.toThrow(/TVC app not found/);
  });

  it("another organization's records are not found", async () => {
    const c = sdkClient(emu);
    const app = await c.createTvcApp(newAppParams().params as never);
    const d = await c.createTvcDeployment(deploymentParams(app.appId));
    const key = newP256KeyPair();
    const sub = await c.createSubOrganization({
      subOrganizationName: `tvc sub ${appName()}`,
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const s = sdkClient(emu, key, sub.subOrganizationId);
    await expect(s.getTvcApp({ tvcAppId: app.appId })).rejects.toThrow(/TVC app not found/);
    await expect(s.getTvcDeployment({ deploymentId: d.deploymentId })).rejects.toThrow(/TVC deployment not found/);
    await expect(s.createTvcDeployment(deploymentParams(app.appId))).rejects.toThrow(/TVC app not found/);
    await expect(s.createTvcApp({ name: appName(), quorumPublicKey: operatorKey().publicKey, manifestSetId: app.manifestSetId, shareSetId: app.shareSetId })).rejects.toThrow(/TVC operator set not found/);
    expect((await s.getTvcApps({})).tvcApps).toEqual([]);
  });
});

describe("TVC policies and the root quorum", () => {
  async function newUser(e: RunningEmulator, name: string): Promise<{ id: string; key: KeyPair }> {
    const key = newP256KeyPair();
    const r = await sdkClient(e).createUsers({ users: [{ userName: name, apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    return { id: r.userIds[0]!, key };
  }

  it("a non-root user needs a policy naming the TVC resource and action", async () => {
    const u = await newUser(emu, `tvc-user-${appName()}`);
    const c = sdkClient(emu, u.key);
    await expect(c.createTvcApp(newAppParams().params as never)).rejects.toMatchObject({ code: 7 });
    const { policyId } = await sdkClient(emu).createPolicy({ policyName: `tvc-apps-${appName()}`, effect: "EFFECT_ALLOW", condition: "activity.resource == 'TVC_APP' && activity.action == 'CREATE'", notes: "" });
    try {
      const app = await c.createTvcApp(newAppParams().params as never);
      expect(app.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      // Deployments are another resource: still denied, nothing written.
      const before = storeCounts(emu).tvc_deployments;
      await expect(c.createTvcDeployment(deploymentParams(app.appId))).rejects.toMatchObject({ code: 7 });
      expect(storeCounts(emu).tvc_deployments).toBe(before);
    } finally {
      await sdkClient(emu).deletePolicy({ policyId });
    }
  });

  it("with a 2-of-2 root quorum an app is created only once the second root user approves", async () => {
    const e = await startTestEmulator();
    try {
      const root = sdkClient(e);
      const second = await newUser(e, "root-2");
      await root.updateRootQuorum({ threshold: 2, userIds: [e.info.rootUserId, second.id] });
      const { params } = newAppParams();
      const proposal = await root.createTvcApp(params as never);
      expect(proposal.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      expect((await root.getTvcApps({})).tvcApps).toEqual([]);
      const approved = await sdkClient(e, second.key).approveActivity({ fingerprint: proposal.activity.fingerprint });
      expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const appId = (approved.activity.result as { createTvcAppResult: { appId: string } }).createTvcAppResult.appId;
      expect((await root.getTvcApps({})).tvcApps.map((a) => [a.id, a.name])).toEqual([[appId, params.name]]);
    } finally {
      await e.stop();
    }
  });
});

describe("what needs a running enclave answers 501 with the reason", () => {
  it("get_app_status, get_tvc_deployment_debug_logs, validate_tvc_image", async () => {
    const c = sdkClient(emu);
    const { appId } = await c.createTvcApp(newAppParams().params as never);
    const { deploymentId } = await c.createTvcDeployment(deploymentParams(appId));
    const cases: [string, Record<string, unknown>, RegExp][] = [
      ["get_app_status", { appId }, /runs no enclave.*replica status/],
      ["get_tvc_deployment_debug_logs", { deploymentId }, /runs no enclave.*no application logs/],
      ["validate_tvc_image", { pivotContainerImageUrl: "ghcr.io/example/pivot:1" }, /pull the container image.*offline/],
    ];
    for (const [op, body, reason] of cases) {
      const r = await rawPost(emu, `/public/v1/query/${op}`, JSON.stringify({ organizationId: emu.info.organizationId, ...body }));
      expect(r.status).toBe(501);
      expect(r.json.message).toMatch(reason);
    }
    await expect(c.getAppStatus({ appId })).rejects.toThrow(/not emulated/);
  });
});
