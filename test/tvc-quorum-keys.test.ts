/**
 * TVC operators and quorum keys through @turnkey/http (the official client that has these
 * calls; @turnkey/sdk-server 8.2 does not): operators whose keys are accounts of an organization
 * wallet, quorum keys split into Shamir shares each encrypted to one operator (decrypted here
 * with the operators' private keys, exported through the official flow, and recombined to the
 * quorum key), the list queries, quorum key shares posted to a deployment, bad input refused
 * naming the field with nothing written, and what needs an enclave (501 with the reason).
 */
import { describe, expect, it } from "vitest";
import { p256 } from "@noble/curves/nist.js";
import { hkdf } from "@noble/hashes/hkdf.js";
import { hmac } from "@noble/hashes/hmac.js";
import { sha512 } from "@noble/hashes/sha2.js";
import { bytesToHex, concatBytes, hexToBytes, randomBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { decryptExportBundle, generateP256KeyPair, quorumKeyEncrypt } from "@turnkey/crypto";
import type { TurnkeyClient } from "@turnkey/http";
import { httpClient, rawPost, sdkClient, storeCounts } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { combineShares } from "../emulator/families/tvc/shamir.js";

const emu = useTestEmulator();
const unknown = "00000000-0000-4000-8000-000000000000";

async function submit<R>(c: TurnkeyClient, method: "createTvcOperator" | "createTvcQuorumKey" | "postTvcQuorumKeyShare", type: string, parameters: unknown, resultKey: string): Promise<R> {
  const r = await (c[method] as (b: unknown) => Promise<{ activity: { status: string; result: Record<string, unknown> } }>)({
    type,
    timestampMs: String(Date.now()),
    organizationId: emu.info.organizationId,
    parameters,
  });
  expect(r.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
  return r.activity.result[resultKey] as R;
}

type OperatorResult = { walletId: string; operatorId: string; encryptPublicKey: string; signPublicKey: string };
const createOperator = (c: TurnkeyClient, parameters: Record<string, unknown>) => submit<OperatorResult>(c, "createTvcOperator", "ACTIVITY_TYPE_CREATE_TVC_OPERATOR", parameters, "createTvcOperatorResult");
type QuorumKeyResult = { quorumKeyId: string; quorumPublicKey: string; shareIds: string[] };
const createQuorumKey = (c: TurnkeyClient, parameters: Record<string, unknown>) => submit<QuorumKeyResult>(c, "createTvcQuorumKey", "ACTIVITY_TYPE_CREATE_TVC_QUORUM_KEY", parameters, "createTvcQuorumKeyResult");

/** The private key of a wallet account, exported the official way (P-256 accounts' address is the uncompressed key). */
async function exportAccountKey(address: string): Promise<Uint8Array> {
  const target = generateP256KeyPair();
  const { exportBundle } = await sdkClient(emu).exportWalletAccount({ address, targetPublicKey: target.publicKeyUncompressed });
  const hex = await decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId: emu.info.organizationId, returnMnemonic: false, dangerouslyOverrideSignerPublicKey: emu.info.signerPublicKey });
  return hexToBytes(hex);
}

/** QuorumOS's envelope opened independently of the emulator (qos_p256 encrypt.rs). */
async function qosOpen(secret: Uint8Array, envelope: Uint8Array): Promise<Uint8Array> {
  const nonce = envelope.subarray(0, 12);
  const sender = envelope.subarray(12, 77);
  const length = new DataView(envelope.buffer, envelope.byteOffset + 77, 4).getUint32(0, true);
  const sealed = envelope.subarray(81, 81 + length);
  const receiver = p256.getPublicKey(secret, false);
  const key = hmac(sha512, concatBytes(sender, receiver, p256.getSharedSecret(secret, sender).subarray(1)), utf8ToBytes("qos_encryption_hmac_message")).subarray(0, 32);
  // WebCrypto wants ArrayBuffer-backed views: copies.
  const aes = await crypto.subtle.importKey("raw", Uint8Array.from(key), "AES-GCM", false, ["decrypt"]);
  const aad = Uint8Array.from(concatBytes(sender, Uint8Array.of(65), receiver, Uint8Array.of(65)));
  return new Uint8Array(await crypto.subtle.decrypt({ name: "AES-GCM", iv: Uint8Array.from(nonce), additionalData: aad }, aes, Uint8Array.from(sealed)));
}

const qosPublicKey = (seed: Uint8Array) =>
  bytesToHex(concatBytes(...["qos_p256_encrypt", "qos_p256_sign"].map((label) => p256.getPublicKey(hkdf(sha512, seed, utf8ToBytes(label), new Uint8Array(0), 32), false))));

let n = 0;
const name = (what: string) => `${what}-${++n}-${bytesToHex(randomBytes(3))}`;

describe("TVC operators from an organization wallet, and quorum keys over them", () => {
  it("operators get P-256 keys derived in a wallet; a 2-of-3 quorum key's shares decrypt with their private keys and recombine to it", async () => {
    const c = httpClient(emu);
    const first = await createOperator(c, { walletName: name("tvc-operators"), path: "m/44'/0'/0'", operatorName: "dana" });
    // Two more operators in the same wallet at other base paths.
    const others = [];
    for (const [path, operatorName] of [["m/44'/0'/1'", "erin"], ["m/44'/0'/2'", "frank"]] as const) others.push(await createOperator(c, { walletId: first.walletId, path, operatorName }));
    const ops = [first, ...others];
    expect(others.every((o) => o.walletId === first.walletId)).toBe(true);
    expect(new Set(ops.flatMap((o) => [o.encryptPublicKey, o.signPublicKey])).size).toBe(6);

    // The keys are the wallet's CURVE_P256 accounts at <path>/0 (encryption) and <path>/1 (signing).
    const { accounts } = await sdkClient(emu).getWalletAccounts({ walletId: first.walletId });
    expect(accounts.map((a) => [a.path, a.curve, a.addressFormat, a.address])).toEqual([
      ["m/44'/0'/0'/0", "CURVE_P256", "ADDRESS_FORMAT_UNCOMPRESSED", first.encryptPublicKey],
      ["m/44'/0'/0'/1", "CURVE_P256", "ADDRESS_FORMAT_UNCOMPRESSED", first.signPublicKey],
      ["m/44'/0'/1'/0", "CURVE_P256", "ADDRESS_FORMAT_UNCOMPRESSED", others[0]!.encryptPublicKey],
      ["m/44'/0'/1'/1", "CURVE_P256", "ADDRESS_FORMAT_UNCOMPRESSED", others[0]!.signPublicKey],
      ["m/44'/0'/2'/0", "CURVE_P256", "ADDRESS_FORMAT_UNCOMPRESSED", others[1]!.encryptPublicKey],
      ["m/44'/0'/2'/1", "CURVE_P256", "ADDRESS_FORMAT_UNCOMPRESSED", others[1]!.signPublicKey],
    ]);
    const listed = (await c.getTvcOperators({ organizationId: emu.info.organizationId })).tvcOperators;
    expect(listed.find((o) => o.id === first.operatorId)).toMatchObject({
      name: "dana",
      publicKey: first.encryptPublicKey + first.signPublicKey,
      encryptPublicKey: first.encryptPublicKey,
      signPublicKey: first.signPublicKey,
      keySource: "ORG_WALLET_ACCOUNT",
    });

    const qk = await createQuorumKey(c, { threshold: "2", operatorEncryptKeys: ops.map((o) => o.encryptPublicKey) });
    expect(qk.shareIds).toHaveLength(3);
    expect(hexToBytes(qk.quorumPublicKey)).toHaveLength(130);
    const keys = (await c.getTvcQuorumKeys({ organizationId: emu.info.organizationId })).tvcQuorumKeys;
    expect(keys.find((k) => k.id === qk.quorumKeyId)).toMatchObject({ publicKey: qk.quorumPublicKey, threshold: 2, operatorIds: ops.map((o) => o.operatorId) });

    // Each share is in QuorumOS's envelope to its operator's encryption key (kept by the service; no query returns it).
    const stored = emu.runtime.store.db.prepare("SELECT id, operator_id, encrypted_share FROM tvc_quorum_key_shares WHERE quorum_key_id = ? ORDER BY rowid").all(qk.quorumKeyId) as {
      id: string;
      operator_id: string;
      encrypted_share: string;
    }[];
    expect(stored.map((s) => [s.id, s.operator_id])).toEqual(qk.shareIds.map((id, i) => [id, ops[i]!.operatorId]));
    const shares = await Promise.all(stored.map(async (s, i) => qosOpen(await exportAccountKey(ops[i]!.encryptPublicKey), hexToBytes(s.encrypted_share))));
    expect(shares.map((s) => [s.length, s[0]])).toEqual([[33, 1], [33, 2], [33, 3]]);
    // Another operator's key does not open a share.
    await expect(qosOpen(await exportAccountKey(ops[1]!.encryptPublicKey), hexToBytes(stored[0]!.encrypted_share))).rejects.toThrow();

    // Any two shares give the master seed whose QuorumOS pair is the quorum key; one does not.
    for (const pair of [[0, 1], [1, 2], [2, 0]]) expect(qosPublicKey(combineShares(pair.map((i) => shares[i]!)))).toBe(qk.quorumPublicKey);
    expect(qosPublicKey(combineShares([shares[0]!, Uint8Array.of(2, ...shares[0]!.subarray(1))]))).not.toBe(qk.quorumPublicKey);
    // The seed is sealed at rest.
    const seedSealed = (emu.runtime.store.db.prepare("SELECT seed_sealed FROM tvc_quorum_keys WHERE id = ?").get(qk.quorumKeyId) as { seed_sealed: string }).seed_sealed;
    expect(qosPublicKey(emu.runtime.store.sealer.open(seedSealed))).toBe(qk.quorumPublicKey);
  });

  it("external operators (create_tvc_app) hold shares too, encrypted to the first half of their QuorumOS key", async () => {
    const c = httpClient(emu);
    const secrets = [0, 1].map(() => ({ enc: p256.utils.randomSecretKey(), sign: p256.utils.randomSecretKey() }));
    const publicKeys = secrets.map((s) => bytesToHex(p256.getPublicKey(s.enc, false)) + bytesToHex(p256.getPublicKey(s.sign, false)));
    const app = await sdkClient(emu).createTvcApp({
      name: name("app"),
      quorumPublicKey: publicKeys[0]!,
      manifestSetParams: { name: "m", threshold: "1", newOperators: [{ name: "gail", publicKey: publicKeys[0]! }] },
      shareSetParams: { name: "s", threshold: "1", newOperators: [{ name: "hal", publicKey: publicKeys[1]! }] },
    } as never);
    const listed = (await c.getTvcOperators({ organizationId: emu.info.organizationId })).tvcOperators.find((o) => o.id === app.shareSetOperatorIds[0]);
    expect(listed).toMatchObject({ keySource: "EXTERNAL_KEY", encryptPublicKey: publicKeys[1]!.slice(0, 130), signPublicKey: publicKeys[1]!.slice(130) });
    // A compressed encryption key names the same operator.
    const compressed = bytesToHex(p256.getPublicKey(secrets[1]!.enc, true));
    const qk = await createQuorumKey(c, { threshold: 2, operatorEncryptKeys: [publicKeys[0]!.slice(0, 130), compressed] });
    const stored = emu.runtime.store.db.prepare("SELECT encrypted_share FROM tvc_quorum_key_shares WHERE quorum_key_id = ? ORDER BY rowid").all(qk.quorumKeyId) as { encrypted_share: string }[];
    const shares = await Promise.all(stored.map((s, i) => qosOpen(secrets[i]!.enc, hexToBytes(s.encrypted_share))));
    expect(qosPublicKey(combineShares(shares))).toBe(qk.quorumPublicKey);
  });

  it("post_tvc_quorum_key_share records a share set operator's share for a deployment", async () => {
    const c = httpClient(emu);
    const s = sdkClient(emu);
    const pk = () => bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), false)) + bytesToHex(p256.getPublicKey(p256.utils.randomSecretKey(), false));
    const app = await s.createTvcApp({
      name: name("app"),
      quorumPublicKey: pk(),
      manifestSetParams: { name: "m", threshold: "1", newOperators: [{ name: "ivy", publicKey: pk() }] },
      shareSetParams: { name: "s", threshold: "2", newOperators: [{ name: "jo", publicKey: pk() }, { name: "kim", publicKey: pk() }] },
    } as never);
    const d = await s.createTvcDeployment({
      appId: app.appId,
      qosVersion: "v0.0.0-emulator",
      pivotContainerImageUrl: "ghcr.io/example/pivot:1",
      pivotPath: "/pivot",
      pivotArgs: [],
      expectedPivotDigest: bytesToHex(randomBytes(32)),
      healthCheckType: "TVC_HEALTH_CHECK_TYPE_HTTP",
      healthCheckPort: 3001,
      publicIngressPort: 3000,
    });
    const ephemeral = generateP256KeyPair();
    const reEncryptedShareHex = bytesToHex(await quorumKeyEncrypt(hexToBytes(ephemeral.publicKeyUncompressed), randomBytes(33)));
    const bundle = { operatorId: app.shareSetOperatorIds[0]!, reEncryptedShareHex, signature: bytesToHex(randomBytes(64)) };
    const post = (over: Record<string, unknown> = {}, bundleOver: Record<string, unknown> = {}) =>
      submit<{ provisioningShareId: string }>(
        c,
        "postTvcQuorumKeyShare",
        "ACTIVITY_TYPE_POST_TVC_QUORUM_KEY_SHARE",
        { deploymentId: d.deploymentId, ephemeralPublicKeyHex: ephemeral.publicKey, shareApprovalBundle: { ...bundle, ...bundleOver }, ...over },
        "postTvcQuorumKeyShareResult",
      );
    const posted = await post();
    const row = emu.runtime.store.db.prepare("SELECT * FROM tvc_provisioning_shares WHERE id = ?").get(posted.provisioningShareId) as Record<string, string>;
    expect(row).toMatchObject({ deployment_id: d.deploymentId, operator_id: bundle.operatorId, ephemeral_public_key: ephemeral.publicKeyUncompressed, re_encrypted_share: reEncryptedShareHex });

    const refused = async (over: Record<string, unknown>, bundleOver: Record<string, unknown>, message: RegExp) => {
      const before = storeCounts(emu);
      await expect(post(over, bundleOver)).rejects.toThrow(message);
      expect(storeCounts(emu)).toEqual(before);
    };
    await refused({}, {}, /has already posted its quorum key share/);
    await refused({ deploymentId: unknown }, {}, /TVC deployment not found/);
    await refused({ ephemeralPublicKeyHex: "xyz" }, { operatorId: app.shareSetOperatorIds[1] }, /ephemeralPublicKeyHex must be a hex-encoded P-256 public key/);
    await refused({}, { operatorId: app.manifestSetOperatorIds[0] }, /is not in the share set/);
    await refused({}, { operatorId: app.shareSetOperatorIds[1], reEncryptedShareHex: "zz" }, /reEncryptedShareHex must be hex/);
    await refused({}, { operatorId: app.shareSetOperatorIds[1], reEncryptedShareHex: "abcd" }, /not a QuorumOS P-256 envelope/);
    await refused({}, { operatorId: app.shareSetOperatorIds[1], signature: "" }, /signature must be a non-empty hex-encoded signature/);
  });
});

describe("TVC operator and quorum key bad input: the field is named, nothing is written", () => {
  async function refused(path: string, type: string, parameters: Record<string, unknown>, message: RegExp, field: string) {
    const before = storeCounts(emu);
    const r = await rawPost(emu, `/public/v1/submit/${path}`, JSON.stringify({ type, timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters }));
    expect(r.status, JSON.stringify(r.json)).toBe(400);
    expect(r.json).toMatchObject({ code: 3, message: expect.stringMatching(message) });
    expect(JSON.stringify(r.json.details)).toContain(`"${field}"`);
    expect(storeCounts(emu)).toEqual(before);
  }

  it("create_tvc_operator and create_tvc_quorum_key", async () => {
    const c = httpClient(emu);
    const op = (parameters: Record<string, unknown>, message: RegExp, field: string) => refused("create_tvc_operator", "ACTIVITY_TYPE_CREATE_TVC_OPERATOR", parameters, message, field);
    const a = await createOperator(c, { walletName: name("w"), path: "m/1'", operatorName: "a" });
    const b = await createOperator(c, { walletId: a.walletId, path: "m/2'", operatorName: "b" });
    await op({ walletName: name("w"), path: "m/1'", operatorName: " " }, /operatorName must not be empty/, "parameters.operatorName");
    await op({ walletName: name("w"), walletId: a.walletId, path: "m/3'", operatorName: "x" }, /not both/, "parameters.walletId");
    await op({ path: "m/3'", operatorName: "x" }, /walletId or parameters.walletName is required/, "parameters.walletName");
    await op({ walletName: name("w"), path: "not a path", operatorName: "x" }, /path/, "parameters.path");
    await op({ walletId: a.walletId, path: "m/1'", operatorName: "again" }, /already has a P-256 account at m\/1'\/0/, "parameters.path");
    await op({ walletId: "nope", path: "m/3'", operatorName: "x" }, /invalid wallet UUID/, "parameters.walletId");
    await expect(createOperator(c, { walletId: unknown, path: "m/3'", operatorName: "x" })).rejects.toThrow(/wallet not found/);

    const qk = (parameters: Record<string, unknown>, message: RegExp, field: string) => refused("create_tvc_quorum_key", "ACTIVITY_TYPE_CREATE_TVC_QUORUM_KEY", parameters, message, field);
    const keys = [a.encryptPublicKey, b.encryptPublicKey];
    await qk({ threshold: "3", operatorEncryptKeys: keys }, /threshold must be from 2 to the number of operator keys \(2\)/, "parameters.threshold");
    await qk({ threshold: "1", operatorEncryptKeys: keys }, /threshold must be from 2/, "parameters.threshold");
    await qk({ threshold: "2", operatorEncryptKeys: [] }, /at least two/, "parameters.operatorEncryptKeys");
    await qk({ threshold: "2", operatorEncryptKeys: [keys[0], "0x12zz"] }, /must be a hex-encoded P-256 public key/, "parameters.operatorEncryptKeys[1]");
    await qk({ threshold: "2", operatorEncryptKeys: [keys[0], "04" + "11".repeat(64)] }, /not a valid P-256 public key/, "parameters.operatorEncryptKeys[1]");
    await qk({ threshold: "2", operatorEncryptKeys: [keys[0], keys[0]] }, /duplicate operator encryption key/, "parameters.operatorEncryptKeys[1]");
    await qk({ threshold: "2", operatorEncryptKeys: [keys[0], a.signPublicKey] }, /no TVC operator of this organization has the encryption key/, "parameters.operatorEncryptKeys[1]");
  });
});

describe("what needs a provisioning enclave answers 501 with the reason", () => {
  it("re_encrypt_tvc_quorum_key_share, get_tvc_deployment_provisioning_details", async () => {
    const q = await rawPost(emu, "/public/v1/query/get_tvc_deployment_provisioning_details", JSON.stringify({ organizationId: emu.info.organizationId, deploymentId: unknown }));
    expect(q.status).toBe(501);
    expect(q.json.message).toMatch(/runs no enclave.*never awaits provisioning/);
    const parameters = { attestationDocB64: "", manifestB64: "", operatorEncryptKey: "", operatorSignKey: "", deploymentId: unknown, appQuorumKey: "" };
    const s = await rawPost(emu, "/public/v1/submit/re_encrypt_tvc_quorum_key_share", JSON.stringify({ type: "ACTIVITY_TYPE_RE_ENCRYPT_TVC_QUORUM_KEY_SHARE", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters }));
    expect(s.status).toBe(501);
    expect(s.json.message).toMatch(/Nitro attestation document/);
  });
});
