/**
 * Secrets end to end, with @turnkey/crypto as the independent client: init_import_secrets
 * (through @turnkey/http, the SDK that routes it) hands out signed ingress target messages that
 * `encryptSecretToBundle` verifies and encrypts to; import_secrets and export_secrets go through
 * @turnkey/sdk-server; `decryptSecretBundle` verifies the export's signature and organization and
 * opens it. Bad input names the field and writes nothing; values rest sealed; policies decide
 * exports by activity type.
 */
import { describe, expect, it } from "vitest";
import { decryptSecretBundle, encryptSecretToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { httpClient, newP256KeyPair, rawPost, sdkClient, startTestEmulator, storeCounts, submitBody, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const SUITE = "TRANSPORT_ENCRYPTION_SUITE_ENCLAVE_ENCRYPT_V1" as const;

const emu = useTestEmulator();

async function initImport(numSecrets: number, key?: KeyPair): Promise<string[]> {
  const r = await httpClient(emu, key).initImportSecrets({
    type: "ACTIVITY_TYPE_INIT_IMPORT_SECRETS",
    timestampMs: String(Date.now()),
    organizationId: emu.info.organizationId,
    parameters: { encryptionSuite: SUITE, numSecrets },
  });
  expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  return r.activity.result.initImportSecretsResult!.enclaveTargetMessages;
}

async function encryptTo(target: string, plaintext: string) {
  return encryptSecretToBundle({ plaintext, ingressTargetBundle: target, organizationId: emu.info.organizationId, dangerouslyOverrideSignerPublicKey: emu.info.signerPublicKey });
}

async function exportAndOpen(secretId: string): Promise<string> {
  const recipient = generateP256KeyPair();
  const r = await sdkClient(emu).exportSecrets({ secrets: [{ secretId, targetPublicKey: recipient.publicKeyUncompressed, encryptionSuite: SUITE }] });
  expect(r.secretPayloads).toHaveLength(1);
  return decryptSecretBundle({ secretPayload: r.secretPayloads[0]!, embeddedPrivateKey: recipient.privateKey, organizationId: emu.info.organizationId, dangerouslyOverrideSignerPublicKey: emu.info.signerPublicKey });
}

describe("import, list and export through the official SDKs", () => {
  it("round-trips two secrets: @turnkey/crypto encrypts to the ingress keys and opens the exports", async () => {
    const [t1, t2] = await initImport(2);
    const card = JSON.stringify({ number: "4242424242424242", exp: "11/29", cvv: "123" });
    const apiKey = "sk_live_é漢字 with spaces\nand a newline";
    const e1 = await encryptTo(t1!, card);
    const e2 = await encryptTo(t2!, apiKey);
    expect(e1.targetPublicKey).not.toBe(e2.targetPublicKey);

    const { secretIds } = await sdkClient(emu).importSecrets({
      secrets: [
        { name: "corporateVisa", secretPayload: e1.secretPayload, targetPublicKey: e1.targetPublicKey, encryptionSuite: SUITE, staticProperties: [{ key: "kind", value: "creditCard" }] },
        { secretPayload: e2.secretPayload, targetPublicKey: e2.targetPublicKey, encryptionSuite: SUITE },
      ],
    });
    expect(secretIds).toHaveLength(2);

    expect(await exportAndOpen(secretIds[0]!)).toBe(card);
    expect(await exportAndOpen(secretIds[1]!)).toBe(apiKey);

    const { secrets } = await sdkClient(emu).listSecrets({});
    const listed = new Map(secrets.map((s) => [s.secretId, s]));
    expect(listed.get(secretIds[0]!)).toMatchObject({ name: "corporateVisa", staticProperties: [{ key: "kind", value: "creditCard" }] });
    expect(listed.get(secretIds[1]!)?.name).toBeUndefined();
    expect(listed.get(secretIds[1]!)?.staticProperties).toEqual([]);
    expect(Number(listed.get(secretIds[0]!)!.createdAtUnixMs)).toBeGreaterThan(0);
    // Newest first: the second secret of the import is listed before the first.
    expect(secrets.findIndex((s) => s.secretId === secretIds[1])).toBeLessThan(secrets.findIndex((s) => s.secretId === secretIds[0]));
  });

  it("exports several secrets in one activity, each to its own key, in request order", async () => {
    const targets = await initImport(3);
    const values = ["alpha", "beta", "gamma"];
    const encrypted = await Promise.all(values.map((v, i) => encryptTo(targets[i]!, v)));
    const { secretIds } = await sdkClient(emu).importSecrets({ secrets: encrypted.map((e) => ({ secretPayload: e.secretPayload, targetPublicKey: e.targetPublicKey, encryptionSuite: SUITE })) });
    const recipients = values.map(() => generateP256KeyPair());
    const order = [2, 0, 1];
    const r = await sdkClient(emu).exportSecrets({ secrets: order.map((i, j) => ({ secretId: secretIds[i]!, targetPublicKey: recipients[j]!.publicKeyUncompressed, encryptionSuite: SUITE })) });
    const opened = await Promise.all(
      r.secretPayloads.map((payload, j) =>
        decryptSecretBundle({ secretPayload: payload, embeddedPrivateKey: recipients[j]!.privateKey, organizationId: emu.info.organizationId, dangerouslyOverrideSignerPublicKey: emu.info.signerPublicKey }),
      ),
    );
    expect(opened).toEqual(order.map((i) => values[i]));
    // A payload opens only with the key it was sealed to.
    await expect(
      decryptSecretBundle({ secretPayload: r.secretPayloads[0]!, embeddedPrivateKey: recipients[1]!.privateKey, organizationId: emu.info.organizationId, dangerouslyOverrideSignerPublicKey: emu.info.signerPublicKey }),
    ).rejects.toThrow();
  });

  it("signs the target messages for the organization it was asked in (the SDK refuses another organization id)", async () => {
    const [t] = await initImport(1);
    await expect(encryptSecretToBundle({ plaintext: "x", ingressTargetBundle: t!, organizationId: "00000000-0000-4000-8000-000000000000", dangerouslyOverrideSignerPublicKey: emu.info.signerPublicKey })).rejects.toThrow(/organization id does not match/);
    await expect(encryptSecretToBundle({ plaintext: "x", ingressTargetBundle: t!, organizationId: emu.info.organizationId })).rejects.toThrow();
  });

  it("lists newest first in pages (paginationOptions limit and after)", async () => {
    const targets = await initImport(3);
    const encrypted = await Promise.all(["p1", "p2", "p3"].map((v, i) => encryptTo(targets[i]!, v)));
    const { secretIds } = await sdkClient(emu).importSecrets({ secrets: encrypted.map((e, i) => ({ name: `paged-${i}-${Date.now()}`, secretPayload: e.secretPayload, targetPublicKey: e.targetPublicKey, encryptionSuite: SUITE })) });
    const first = await sdkClient(emu).listSecrets({ paginationOptions: { limit: "2" } });
    expect(first.secrets.map((x) => x.secretId)).toEqual([secretIds[2], secretIds[1]]);
    const next = await sdkClient(emu).listSecrets({ paginationOptions: { limit: "2", after: secretIds[1] } });
    expect(next.secrets[0]!.secretId).toBe(secretIds[0]);
  });

  it("keeps values sealed at rest: neither the plaintext nor its bytes appear in the database", async () => {
    const marker = "plaintext-marker-7f3c9a";
    const [t] = await initImport(1);
    const e = await encryptTo(t!, marker);
    const { secretIds } = await sdkClient(emu).importSecrets({ secrets: [{ secretPayload: e.secretPayload, targetPublicKey: e.targetPublicKey, encryptionSuite: SUITE }] });
    const image = emu.runtime.store.image();
    expect(image.includes(Buffer.from(marker))).toBe(false);
    expect(image.includes(Buffer.from(Buffer.from(marker).toString("base64")))).toBe(false);
    expect(await exportAndOpen(secretIds[0]!)).toBe(marker);
  });
});

describe("bad input names the field and writes nothing", () => {
  async function expectRefused(body: string, status: number, field: RegExp | string | null, message?: RegExp) {
    const before = storeCounts(emu);
    const r = await rawPost(emu, body.includes("INIT_IMPORT") ? "/public/v1/submit/init_import_secrets" : body.includes("EXPORT_SECRETS") ? "/public/v1/submit/export_secrets" : "/public/v1/submit/import_secrets", body);
    expect(r.status, JSON.stringify(r.json)).toBe(status);
    if (field !== null) expect(JSON.stringify(r.json.details)).toMatch(field);
    if (message) expect(r.json.message).toMatch(message);
    expect(storeCounts(emu)).toEqual(before);
    return r.json;
  }

  it("refuses a target key used once already (single use), naming it", async () => {
    const [t] = await initImport(1);
    const e = await encryptTo(t!, "first");
    await sdkClient(emu).importSecrets({ secrets: [{ secretPayload: e.secretPayload, targetPublicKey: e.targetPublicKey, encryptionSuite: SUITE }] });
    const again = await encryptTo(t!, "second");
    await expectRefused(submitBody(emu, "ACTIVITY_TYPE_IMPORT_SECRETS", { secrets: [{ secretPayload: again.secretPayload, targetPublicKey: again.targetPublicKey, encryptionSuite: SUITE }] }), 400, "parameters.secrets[0].targetPublicKey");
  });

  it("refuses a payload that does not open with its target key, and consumes nothing", async () => {
    const [t1, t2] = await initImport(2);
    const e1 = await encryptTo(t1!, "one");
    const e2 = await encryptTo(t2!, "two");
    // e2's ciphertext named with e1's key: HPKE fails.
    await expectRefused(
      submitBody(emu, "ACTIVITY_TYPE_IMPORT_SECRETS", {
        secrets: [
          { secretPayload: e1.secretPayload, targetPublicKey: e1.targetPublicKey, encryptionSuite: SUITE },
          { secretPayload: e2.secretPayload, targetPublicKey: e1.targetPublicKey, encryptionSuite: SUITE },
        ],
      }),
      400,
      "parameters.secrets[1]",
    );
    await expectRefused(submitBody(emu, "ACTIVITY_TYPE_IMPORT_SECRETS", { secrets: [{ secretPayload: "not json", targetPublicKey: e1.targetPublicKey, encryptionSuite: SUITE }] }), 400, "parameters.secrets[0].secretPayload");
    // Both keys are still pending: the import that failed rolled back the first one's consumption.
    const { secretIds } = await sdkClient(emu).importSecrets({
      secrets: [
        { secretPayload: e1.secretPayload, targetPublicKey: e1.targetPublicKey, encryptionSuite: SUITE },
        { secretPayload: e2.secretPayload, targetPublicKey: e2.targetPublicKey, encryptionSuite: SUITE },
      ],
    });
    expect(await exportAndOpen(secretIds[1]!)).toBe("two");
  });

  it("refuses a name already used in the organization or twice in one request, and duplicate property keys", async () => {
    const [t1, t2] = await initImport(2);
    const e1 = await encryptTo(t1!, "v1");
    const e2 = await encryptTo(t2!, "v2");
    await sdkClient(emu).importSecrets({ secrets: [{ name: "unique-name", secretPayload: e1.secretPayload, targetPublicKey: e1.targetPublicKey, encryptionSuite: SUITE }] });
    await expectRefused(submitBody(emu, "ACTIVITY_TYPE_IMPORT_SECRETS", { secrets: [{ name: "unique-name", secretPayload: e2.secretPayload, targetPublicKey: e2.targetPublicKey, encryptionSuite: SUITE }] }), 400, "parameters.secrets[0].name");
    await expectRefused(
      submitBody(emu, "ACTIVITY_TYPE_IMPORT_SECRETS", { secrets: [{ secretPayload: e2.secretPayload, targetPublicKey: e2.targetPublicKey, encryptionSuite: SUITE, staticProperties: [{ key: "k", value: "1" }, { key: "k", value: "2" }] }] }),
      400,
      "parameters.secrets[0].staticProperties[1].key",
    );
  });

  it("refuses numSecrets out of range, an unknown suite, an unknown secret and a malformed export key", async () => {
    await expectRefused(submitBody(emu, "ACTIVITY_TYPE_INIT_IMPORT_SECRETS", { encryptionSuite: SUITE, numSecrets: 0 }), 400, "parameters.numSecrets");
    await expectRefused(submitBody(emu, "ACTIVITY_TYPE_INIT_IMPORT_SECRETS", { encryptionSuite: SUITE, numSecrets: 101 }), 400, "parameters.numSecrets");
    await expectRefused(submitBody(emu, "ACTIVITY_TYPE_INIT_IMPORT_SECRETS", { encryptionSuite: "TRANSPORT_ENCRYPTION_SUITE_NONE", numSecrets: 1 }), 400, "encryptionSuite");
    const recipient = generateP256KeyPair();
    await expectRefused(submitBody(emu, "ACTIVITY_TYPE_EXPORT_SECRETS", { secrets: [{ secretId: "00000000-0000-4000-8000-000000000000", targetPublicKey: recipient.publicKeyUncompressed, encryptionSuite: SUITE }] }), 404, null, /secret not found/);
    const [t] = await initImport(1);
    const e = await encryptTo(t!, "v");
    const { secretIds } = await sdkClient(emu).importSecrets({ secrets: [{ secretPayload: e.secretPayload, targetPublicKey: e.targetPublicKey, encryptionSuite: SUITE }] });
    await expectRefused(submitBody(emu, "ACTIVITY_TYPE_EXPORT_SECRETS", { secrets: [{ secretId: secretIds[0], targetPublicKey: "04abcd", encryptionSuite: SUITE }] }), 400, "parameters.secrets[0].targetPublicKey");
  });
});

describe("tenancy and policies", () => {
  it("a sub-organization sees neither the parent's secrets nor its ingress keys", async () => {
    const subKey = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "secret-sub",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "sub root", apiKeys: [{ apiKeyName: "k", publicKey: subKey.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const subOrgId = sub.subOrganizationId;
    const [t] = await initImport(1);
    const e = await encryptTo(t!, "parent's");
    const { secretIds } = await sdkClient(emu).importSecrets({ secrets: [{ secretPayload: e.secretPayload, targetPublicKey: e.targetPublicKey, encryptionSuite: SUITE }] });
    const subClient = sdkClient(emu, subKey, subOrgId);
    expect((await subClient.listSecrets({})).secrets).toEqual([]);
    const recipient = generateP256KeyPair();
    await expect(subClient.exportSecrets({ secrets: [{ secretId: secretIds[0]!, targetPublicKey: recipient.publicKeyUncompressed, encryptionSuite: SUITE }] })).rejects.toThrow(/secret not found/);
    // The parent's pending key is not the sub-organization's to use.
    const [t2] = await initImport(1);
    const e2 = await encryptTo(t2!, "x");
    await expect(subClient.importSecrets({ secrets: [{ secretPayload: e2.secretPayload, targetPublicKey: e2.targetPublicKey, encryptionSuite: SUITE }] })).rejects.toThrow(/no pending ingress target key/);
  });

  it("policies read secret.static_properties; a batch export is allowed only when every secret is (all or nothing)", async () => {
    const key = newP256KeyPair();
    const root = sdkClient(emu);
    const { userIds } = await root.createUsers({ users: [{ userName: "payments agent", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    const targets = await initImport(3);
    const [card, note, prodCard] = await Promise.all([encryptTo(targets[0]!, "4242"), encryptTo(targets[1]!, "just a note"), encryptTo(targets[2]!, "5555")]);
    const { secretIds } = await root.importSecrets({
      secrets: [
        { secretPayload: card.secretPayload, targetPublicKey: card.targetPublicKey, encryptionSuite: SUITE, staticProperties: [{ key: "kind", value: "creditCard" }] },
        { secretPayload: note.secretPayload, targetPublicKey: note.targetPublicKey, encryptionSuite: SUITE, staticProperties: [{ key: "kind", value: "note" }] },
        { secretPayload: prodCard.secretPayload, targetPublicKey: prodCard.targetPublicKey, encryptionSuite: SUITE, staticProperties: [{ key: "kind", value: "creditCard" }, { key: "environment", value: "production" }] },
      ],
    });
    const only = `approvers.any(user, user.id == '${userIds[0]}')`;
    await root.createPolicy({ policyName: "agent exports credit cards", effect: "EFFECT_ALLOW", consensus: only, condition: "secret.static_properties['kind'] == 'creditCard' && activity.type == 'ACTIVITY_TYPE_EXPORT_SECRETS'", notes: "" });
    const denyId = (await root.createPolicy({ policyName: "never production", effect: "EFFECT_DENY", consensus: only, condition: "secret.static_properties['environment'] == 'production'", notes: "" })).policyId;
    const agent = sdkClient(emu, key);
    const recipient = generateP256KeyPair();
    const exportIds = (ids: string[]) => agent.exportSecrets({ secrets: ids.map((secretId) => ({ secretId, targetPublicKey: recipient.publicKeyUncompressed, encryptionSuite: SUITE })) });
    const open = (payload: string) => decryptSecretBundle({ secretPayload: payload, embeddedPrivateKey: recipient.privateKey, organizationId: emu.info.organizationId, dangerouslyOverrideSignerPublicKey: emu.info.signerPublicKey });

    expect(await open((await exportIds([secretIds[0]!])).secretPayloads[0]!)).toBe("4242");
    await expect(exportIds([secretIds[1]!])).rejects.toThrow(/sufficient permissions/);
    // One secret no policy allows fails the whole batch: nothing is exported.
    await expect(exportIds([secretIds[0]!, secretIds[1]!])).rejects.toThrow(/sufficient permissions/);
    // An explicit deny of one secret denies the batch and names the policy.
    const denied = await rawPost(emu, "/public/v1/submit/export_secrets", submitBody(emu, "ACTIVITY_TYPE_EXPORT_SECRETS", { secrets: [secretIds[0], secretIds[2]].map((secretId) => ({ secretId, targetPublicKey: recipient.publicKeyUncompressed, encryptionSuite: SUITE })) }), { key });
    expect(denied.status).toBe(403);
    expect(JSON.stringify(denied.json.details)).toContain(`The following policies denied this action: ${denyId}`);
  });

  it("under a root quorum of two an export waits for the second root user; the payload opens only with the requester's key", async () => {
    const e = await startTestEmulator();
    try {
      const root = sdkClient(e);
      const second = newP256KeyPair();
      const { userIds } = await root.createUsers({ users: [{ userName: "root-2", apiKeys: [{ apiKeyName: "k", publicKey: second.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
      const init = await httpClient(e).initImportSecrets({ type: "ACTIVITY_TYPE_INIT_IMPORT_SECRETS", timestampMs: String(Date.now()), organizationId: e.info.organizationId, parameters: { encryptionSuite: SUITE, numSecrets: 1 } });
      const enc = await encryptSecretToBundle({ plaintext: "quorum-held", ingressTargetBundle: init.activity.result.initImportSecretsResult!.enclaveTargetMessages[0]!, organizationId: e.info.organizationId, dangerouslyOverrideSignerPublicKey: e.info.signerPublicKey });
      const { secretIds } = await root.importSecrets({ secrets: [{ secretPayload: enc.secretPayload, targetPublicKey: enc.targetPublicKey, encryptionSuite: SUITE }] });
      await root.updateRootQuorum({ threshold: 2, userIds: [e.info.rootUserId, userIds[0]!] });

      const requester = generateP256KeyPair();
      const proposal = await root.exportSecrets({ secrets: [{ secretId: secretIds[0]!, targetPublicKey: requester.publicKeyUncompressed, encryptionSuite: SUITE }] });
      expect(proposal.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      expect(proposal.activity.result?.exportSecretsResult).toBeUndefined();
      const approved = await sdkClient(e, second).approveActivity({ fingerprint: proposal.activity.fingerprint });
      expect(approved.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
      const payload = (approved.activity.result as { exportSecretsResult: { secretPayloads: string[] } }).exportSecretsResult.secretPayloads[0]!;
      expect(await decryptSecretBundle({ secretPayload: payload, embeddedPrivateKey: requester.privateKey, organizationId: e.info.organizationId, dangerouslyOverrideSignerPublicKey: e.info.signerPublicKey })).toBe("quorum-held");
      // The approver's key does not open it.
      await expect(decryptSecretBundle({ secretPayload: payload, embeddedPrivateKey: second.privateKey, organizationId: e.info.organizationId, dangerouslyOverrideSignerPublicKey: e.info.signerPublicKey })).rejects.toThrow();
    } finally {
      await e.stop();
    }
  });

  it("a non-root user exports only when a policy allows ACTIVITY_TYPE_EXPORT_SECRETS", async () => {
    const key = newP256KeyPair();
    const root = sdkClient(emu);
    const { userIds } = await root.createUsers({ users: [{ userName: "secrets agent", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
    const [t] = await initImport(1);
    const e = await encryptTo(t!, "gated");
    const { secretIds } = await root.importSecrets({ secrets: [{ secretPayload: e.secretPayload, targetPublicKey: e.targetPublicKey, encryptionSuite: SUITE }] });
    const recipient = generateP256KeyPair();
    const agent = sdkClient(emu, key);
    const exportIt = () => agent.exportSecrets({ secrets: [{ secretId: secretIds[0]!, targetPublicKey: recipient.publicKeyUncompressed, encryptionSuite: SUITE }] });
    await expect(exportIt()).rejects.toThrow(/sufficient permissions/);
    await root.createPolicy({
      policyName: "agent exports secrets",
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${userIds[0]}')`,
      condition: "activity.type == 'ACTIVITY_TYPE_EXPORT_SECRETS' && activity.resource == 'SECRET' && activity.action == 'EXPORT'",
      notes: "",
    });
    const r = await exportIt();
    expect(await decryptSecretBundle({ secretPayload: r.secretPayloads[0]!, embeddedPrivateKey: recipient.privateKey, organizationId: emu.info.organizationId, dangerouslyOverrideSignerPublicKey: emu.info.signerPublicKey })).toBe("gated");
  });
});

describe("delete_secrets (@turnkey/http 6.6's deleteSecrets, beyond the published documents)", () => {
  it("deletes the named secrets, all or nothing: an unknown id deletes none and names its field", async () => {
    const [t1, t2] = await initImport(2);
    const encrypted = [await encryptTo(t1!, "one"), await encryptTo(t2!, "two")];
    const { secretIds } = await sdkClient(emu).importSecrets({ secrets: encrypted.map((e) => ({ secretPayload: e.secretPayload, targetPublicKey: e.targetPublicKey, encryptionSuite: SUITE })) });
    const listed = async () => (await sdkClient(emu).listSecrets({})).secrets.map((s) => s.secretId);

    const before = storeCounts(emu);
    const unknown = "00000000-0000-4000-8000-000000000000";
    await expect(
      httpClient(emu).deleteSecrets({ type: "ACTIVITY_TYPE_DELETE_SECRETS", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { secretIds: [secretIds[0]!, unknown] } }),
    ).rejects.toThrow(/secret not found: 00000000-0000-4000-8000-000000000000 \(parameters\.secretIds\[1\]\)/);
    expect(storeCounts(emu)).toEqual(before);
    expect(await listed()).toEqual(expect.arrayContaining(secretIds));

    const r = await httpClient(emu).deleteSecrets({ type: "ACTIVITY_TYPE_DELETE_SECRETS", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { secretIds: [secretIds[0]!] } });
    expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    expect(r.activity.result.deleteSecretsResult?.secretIds).toEqual([secretIds[0]]);
    const after = await listed();
    expect(after).not.toContain(secretIds[0]);
    expect(after).toContain(secretIds[1]);
    // The deleted secret cannot be exported any more.
    await expect(exportAndOpen(secretIds[0]!)).rejects.toThrow(/secret not found/);
    expect(await exportAndOpen(secretIds[1]!)).toBe("two");
  });
});
