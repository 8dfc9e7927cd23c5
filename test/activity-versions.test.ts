/**
 * Issue 38: every older activity version a published document defines an intent for is accepted
 * at its family's path, through raw stamped requests carrying the literal type its SDK era sent.
 * Each answer has the type sent and that version's result member, and the effect is checked
 * through the current SDK (the sub-organization, user, key, signature, policy is really there).
 */
import { describe, expect, it } from "vitest";
import { createBase58check } from "@scure/base";
import { sha256 } from "@noble/hashes/sha2.js";
import { generateP256KeyPair } from "@turnkey/crypto";
import { secp256k1 } from "@noble/curves/secp256k1.js";
import { bytesToHex } from "@noble/hashes/utils.js";
import { publicKeyToAddress } from "viem/accounts";
import { keccak256, parseGwei, recoverAddress, recoverTransactionAddress, serializeTransaction, type Hex } from "viem";
import { createApiKeyUser, newP256KeyPair, rawPost, sdkClient, storeCounts, submitBody, type KeyPair } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";
import { lastMail, mintIdToken } from "./auth/support.js";

const emu = useTestEmulator();
const now = () => String(Date.now());

type Activity = { id: string; type: string; status: string; intent: Record<string, unknown>; result: Record<string, Record<string, unknown>> };

/** Submits `parameters` under `type` at `/public/v1/submit/<path>`, stamped with `key` (the root user's by default), as a generated client of that era would. */
async function submitAs(path: string, type: string, parameters: unknown, key?: KeyPair): Promise<Activity> {
  const r = await rawPost(emu, `/public/v1/submit/${path}`, submitBody(emu, type, parameters), { key });
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  const a = r.json.activity as Activity;
  expect(a.type).toBe(type);
  expect(a.status).toBe("ACTIVITY_STATUS_COMPLETED");
  return a;
}

/** The one result member of an activity, checked to be `key`. */
function resultOf(a: Activity, key: string): Record<string, any> {
  expect(Object.keys(a.result)).toEqual([key]);
  return a.result[key]!;
}

/** The user an API key or passkey stamp identifies in `organizationId`. */
async function whoami(organizationId: string, auth: { key: KeyPair } | { passkey: SoftwareAuthenticator }): Promise<string> {
  const body = JSON.stringify({ organizationId });
  const opts = "key" in auth ? { key: auth.key } : { key: null, headers: { "X-Stamp-Webauthn": auth.passkey.stamp(body) } };
  const r = await rawPost(emu, "/public/v1/query/whoami", body, opts);
  expect(r.status, JSON.stringify(r.json)).toBe(200);
  return r.json.userId;
}

/** An API key without `curveType`, as the versions before it sent one. */
const keyV1 = (name: string, key: KeyPair) => ({ apiKeyName: name, publicKey: key.publicKey });

/** A passkey registration in the first shape: the browser's PublicKeyCredential as JSON (@turnkey/http's getWebAuthnAttestation, 2023). */
function firstShapeAuthenticator(passkey: SoftwareAuthenticator, name: string, userId: string) {
  const reg = passkey.registration(name);
  return {
    authenticatorName: reg.authenticatorName,
    userId,
    challenge: reg.challenge,
    attestation: {
      id: reg.attestation.credentialId,
      type: "public-key",
      rawId: reg.attestation.credentialId,
      authenticatorAttachment: "platform",
      response: { clientDataJson: reg.attestation.clientDataJson, attestationObject: reg.attestation.attestationObject, transports: reg.attestation.transports },
      clientExtensionResults: {},
    },
  };
}

/** A Tron address's 20 bytes (base58check of 0x41 ‖ hash), as hex: an Ethereum address of the same key has them too. */
const tronBytes = (address: string) => bytesToHex(createBase58check(sha256).decode(address).slice(1));

describe("create_sub_organization, every version", () => {
  it("V4 as Turnkey's Ruby example sends it (2024): typed V4, createSubOrganizationResultV4 with its wallet's Tron address", async () => {
    const rootKey = newP256KeyPair();
    // tkhq/ruby-sdk examples/create_sub_org/create_sub_org.rb (userEmail: nil left out: protobuf's null is another change).
    const a = await submitAs("create_sub_organization", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4", {
      subOrganizationName: `Sub-Organization @${now()}`,
      rootUsers: [{ userName: "Root User", apiKeys: [keyV1("Root User API key", rootKey)], authenticators: [] }],
      rootQuorumThreshold: 1,
      wallet: { walletName: "Tron Wallet", mnemonicLength: 12, accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/195'/0'", addressFormat: "ADDRESS_FORMAT_TRON" }] },
    });
    expect(Object.keys(a.intent)).toEqual(["createSubOrganizationIntentV4"]);
    const r = resultOf(a, "createSubOrganizationResultV4");
    const tron = r.wallet.addresses[0] as string;
    expect(tron).toMatch(/^T[1-9A-HJ-NP-Za-km-z]{33}$/);
    // The sub-organization exists with its root user (the API key, P-256 then, stamps in it) and its wallet.
    expect(await whoami(r.subOrganizationId, { key: rootKey })).toBe(r.rootUserIds[0]);
    const sub = sdkClient(emu, rootKey, r.subOrganizationId);
    const { accounts } = await sub.getWalletAccounts({ walletId: r.wallet.walletId });
    expect(accounts).toHaveLength(1);
    expect(accounts[0]).toMatchObject({ address: tron, path: "m/44'/195'/0'", addressFormat: "ADDRESS_FORMAT_TRON" });
    // The Tron address is the account key's: the same 20 bytes as its Ethereum address.
    const uncompressed = secp256k1.Point.fromHex(accounts[0]!.publicKey!).toHex(false);
    expect(tronBytes(tron)).toBe(publicKeyToAddress(`0x${uncompressed}`).slice(2).toLowerCase());
  });

  it("V4 with generateAppProofs proves the address its wallet derived", async () => {
    const account = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" };
    const parameters = { subOrganizationName: `proved ${now()}`, rootUsers: [{ userName: "root", apiKeys: [keyV1("k", newP256KeyPair())], authenticators: [] }], rootQuorumThreshold: 1, wallet: { walletName: "w", accounts: [account] } };
    const r = await rawPost(emu, "/public/v1/submit/create_sub_organization", submitBody(emu, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4", parameters, { generateAppProofs: true }));
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const { subOrganizationId, wallet } = r.json.activity.result.createSubOrganizationResultV4;
    const proofs = r.json.activity.appProofs as { proofPayload: string }[];
    expect(proofs.map((p) => JSON.parse(p.proofPayload).addressDerivationProof)).toEqual([{ organizationId: subOrganizationId, walletId: wallet.walletId, derivationPath: account.path, address: wallet.addresses[0] }]);
  });

  it("V1 (name, rootAuthenticator): one root user holding the passkey, result createSubOrganizationResult", async () => {
    const passkey = new SoftwareAuthenticator();
    const a = await submitAs("create_sub_organization", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION", { name: `v1 ${now()}`, rootAuthenticator: passkey.registration("root passkey") });
    const r = resultOf(a, "createSubOrganizationResult");
    expect(r.rootUserIds).toHaveLength(1);
    expect(await whoami(r.subOrganizationId, { passkey })).toBe(r.rootUserIds[0]);
  });

  it("refuses a V1 passkey whose challenge does not match, naming rootAuthenticator, writing nothing", async () => {
    const reg = new SoftwareAuthenticator().registration("root passkey");
    const before = storeCounts(emu);
    const r = await rawPost(emu, "/public/v1/submit/create_sub_organization", submitBody(emu, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION", { name: `bad ${now()}`, rootAuthenticator: { ...reg, challenge: "AAAA" } }));
    expect(r.status).toBe(400);
    expect(r.json.details.find((d: any) => d.fieldViolations).fieldViolations[0].field).toBe("parameters.rootAuthenticator.challenge");
    expect(storeCounts(emu)).toEqual(before);
  });

  it("V2 (root users with P-256 keys, no wallet): createSubOrganizationResult, the document having no V2 member", async () => {
    const rootKey = newP256KeyPair();
    const a = await submitAs("create_sub_organization", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V2", {
      subOrganizationName: `v2 ${now()}`,
      rootUsers: [{ userName: "root", userEmail: "v2-root@example.com", apiKeys: [keyV1("k", rootKey)], authenticators: [] }],
      rootQuorumThreshold: 1,
    });
    const r = resultOf(a, "createSubOrganizationResult");
    expect(await whoami(r.subOrganizationId, { key: rootKey })).toBe(r.rootUserIds[0]);
    const { user } = await sdkClient(emu, rootKey, r.subOrganizationId).getUser({ userId: r.rootUserIds[0] });
    expect(user.userEmail).toBe("v2-root@example.com");
  });

  it("V3 makes its private keys in the new sub-organization and answers them in createSubOrganizationResultV3", async () => {
    const rootKey = newP256KeyPair();
    const a = await submitAs("create_sub_organization", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V3", {
      subOrganizationName: `v3 ${now()}`,
      rootUsers: [{ userName: "root", apiKeys: [keyV1("k", rootKey)], authenticators: [] }],
      rootQuorumThreshold: 1,
      privateKeys: [{ privateKeyName: "eth key", curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }],
    });
    const r = resultOf(a, "createSubOrganizationResultV3");
    expect(r.privateKeys).toHaveLength(1);
    const { privateKeyId, addresses } = r.privateKeys[0];
    const { privateKey } = await sdkClient(emu, rootKey, r.subOrganizationId).getPrivateKey({ privateKeyId });
    expect(privateKey.privateKeyName).toBe("eth key");
    // The answered address is the key's (viem derives it from the stored public key).
    expect(addresses).toEqual([{ format: "ADDRESS_FORMAT_ETHEREUM", address: publicKeyToAddress(`0x${privateKey.publicKey}`) }]);
  });

  it("V5 (OAuth providers, P-256 keys) links the root user's identity; V6 (keys with curveType) is V8 without phone numbers", async () => {
    const rootKey = newP256KeyPair();
    const oidcToken = await mintIdToken(emu, { sub: `v5-${now()}`, aud: "v5-app" });
    const v5 = await submitAs("create_sub_organization", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V5", {
      subOrganizationName: `v5 ${now()}`,
      rootUsers: [{ userName: "root", apiKeys: [keyV1("k", rootKey)], authenticators: [], oauthProviders: [{ providerName: "google", oidcToken }] }],
      rootQuorumThreshold: 1,
    });
    const r5 = resultOf(v5, "createSubOrganizationResultV5");
    const { oauthProviders } = await sdkClient(emu, rootKey, r5.subOrganizationId).getOauthProviders({ userId: r5.rootUserIds[0] });
    expect(oauthProviders.map((p) => p.providerName)).toEqual(["google"]);

    const v6 = await submitAs("create_sub_organization", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V6", {
      subOrganizationName: `v6 ${now()}`,
      rootUsers: [{ userName: "root", apiKeys: [{ ...keyV1("k", rootKey), curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      rootQuorumThreshold: 1,
      disableEmailAuth: true,
    });
    const r6 = resultOf(v6, "createSubOrganizationResultV6");
    expect(await whoami(r6.subOrganizationId, { key: rootKey })).toBe(r6.rootUserIds[0]);
  });
});

describe("users and credentials, first versions", () => {
  it("create_users V1 (accessType, keys without curve) and V2 make users whose keys stamp, result createUsersResult", async () => {
    const k1 = newP256KeyPair();
    const k2 = newP256KeyPair();
    const v1 = await submitAs("create_users", "ACTIVITY_TYPE_CREATE_USERS", { users: [{ userName: `v1 ${now()}`, accessType: "ACCESS_TYPE_API", apiKeys: [keyV1("k", k1)], authenticators: [], userTags: [] }] });
    expect(await whoami(emu.info.organizationId, { key: k1 })).toBe(resultOf(v1, "createUsersResult").userIds[0]);
    const v2 = await submitAs("create_users", "ACTIVITY_TYPE_CREATE_USERS_V2", { users: [{ userName: `v2 ${now()}`, apiKeys: [keyV1("k", k2)], authenticators: [], userTags: [] }] });
    expect(await whoami(emu.info.organizationId, { key: k2 })).toBe(resultOf(v2, "createUsersResult").userIds[0]);
  });

  it("an older version that needs another user's approval runs as that version once approved (create_users V2)", async () => {
    const [proposer, approver] = [await createApiKeyUser(emu, `proposer ${now()}`), await createApiKeyUser(emu, `approver ${now()}`)];
    const { policyId } = await sdkClient(emu).createPolicy({
      policyName: `v2 with approval ${now()}`,
      effect: "EFFECT_ALLOW",
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_USERS_V2'",
      consensus: `approvers.any(user, user.id == '${approver.id}')`,
      notes: "",
    });
    const key = newP256KeyPair();
    const r = await rawPost(emu, "/public/v1/submit/create_users", submitBody(emu, "ACTIVITY_TYPE_CREATE_USERS_V2", { users: [{ userName: `approved ${now()}`, apiKeys: [keyV1("k", key)], authenticators: [], userTags: [] }] }), { key: proposer.key });
    expect([r.status, r.json.activity.status]).toEqual([200, "ACTIVITY_STATUS_CONSENSUS_NEEDED"]);
    const { activity } = await sdkClient(emu, approver.key).approveActivity({ fingerprint: r.json.activity.fingerprint });
    expect([activity.type, activity.status]).toEqual(["ACTIVITY_TYPE_CREATE_USERS_V2", "ACTIVITY_STATUS_COMPLETED"]);
    expect(await whoami(emu.info.organizationId, { key })).toBe(activity.result.createUsersResult!.userIds[0]);
    await sdkClient(emu).deletePolicy({ policyId });
  });

  it("create_users V1 honours accessType: a dashboard-only user takes no API keys (400 naming the field, nothing written)", async () => {
    const before = storeCounts(emu);
    const r = await rawPost(
      emu,
      "/public/v1/submit/create_users",
      submitBody(emu, "ACTIVITY_TYPE_CREATE_USERS", { users: [{ userName: `web ${now()}`, accessType: "ACCESS_TYPE_WEB", apiKeys: [keyV1("k", newP256KeyPair())], authenticators: [], userTags: [] }] }),
    );
    expect([r.status, r.json.code]).toEqual([400, 3]);
    expect(r.json.details.find((d: any) => d.fieldViolations).fieldViolations[0].field).toBe("parameters.users[0].apiKeys");
    expect(storeCounts(emu)).toEqual(before);
  });

  it("create_api_keys V1: a P-256 key that stamps as the user", async () => {
    const { id } = await createApiKeyUser(emu, `keys ${now()}`);
    const key = newP256KeyPair();
    const a = await submitAs("create_api_keys", "ACTIVITY_TYPE_CREATE_API_KEYS", { userId: id, apiKeys: [keyV1("second", key)] });
    expect(resultOf(a, "createApiKeysResult").apiKeyIds).toHaveLength(1);
    expect(await whoami(emu.info.organizationId, { key })).toBe(id);
  });

  it("create_authenticators V1 (the browser's credential JSON) registers a passkey that stamps; a passkey for another user is refused", async () => {
    const { id } = await createApiKeyUser(emu, `passkeys ${now()}`);
    const passkey = new SoftwareAuthenticator();
    const a = await submitAs("create_authenticators", "ACTIVITY_TYPE_CREATE_AUTHENTICATORS", { userId: id, authenticators: [firstShapeAuthenticator(passkey, "laptop", id)] });
    expect(resultOf(a, "createAuthenticatorsResult").authenticatorIds).toHaveLength(1);
    expect(await whoami(emu.info.organizationId, { passkey })).toBe(id);

    const other = firstShapeAuthenticator(new SoftwareAuthenticator(), "phone", emu.info.rootUserId);
    const r = await rawPost(emu, "/public/v1/submit/create_authenticators", submitBody(emu, "ACTIVITY_TYPE_CREATE_AUTHENTICATORS", { userId: id, authenticators: [other] }));
    expect(r.status).toBe(400);
    expect(r.json.details.find((d: any) => d.fieldViolations).fieldViolations[0].field).toBe("parameters.authenticators[0].userId");
  });
});

describe("keys and signing, first versions (@turnkey/ethers 0.x, 2023: privateKeyId)", () => {
  it("create_private_keys V1 answers createPrivateKeysResult with the ids only", async () => {
    const a = await submitAs("create_private_keys", "ACTIVITY_TYPE_CREATE_PRIVATE_KEYS", {
      privateKeys: [{ privateKeyName: `v1 key ${now()}`, curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }],
    });
    const r = resultOf(a, "createPrivateKeysResult");
    expect(Object.keys(r)).toEqual(["privateKeyIds"]);
    const { privateKey } = await sdkClient(emu).getPrivateKey({ privateKeyId: r.privateKeyIds[0] });
    expect(privateKey.addresses[0]!.format).toBe("ADDRESS_FORMAT_ETHEREUM");
  });

  it("sign_raw_payload V1 and sign_transaction V1 sign with the private key privateKeyId names (viem recovers its address)", async () => {
    const { privateKeys } = await sdkClient(emu).createPrivateKeys({
      privateKeys: [{ privateKeyName: `signer ${now()}`, curve: "CURVE_SECP256K1", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }],
    });
    const { privateKeyId, addresses } = privateKeys[0]!;
    const address = addresses![0]!.address as Hex;
    const hash = keccak256("0x1234");
    const raw = await submitAs("sign_raw_payload", "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD", { privateKeyId, payload: hash, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    const sig = resultOf(raw, "signRawPayloadResult");
    expect(await recoverAddress({ hash, signature: { r: `0x${sig.r}`, s: `0x${sig.s}`, yParity: Number(sig.v) } })).toBe(address);

    const unsigned = serializeTransaction({ type: "eip1559", chainId: 1, nonce: 0, to: "0x1111111111111111111111111111111111111111", value: 1n, gas: 21_000n, maxFeePerGas: parseGwei("10"), maxPriorityFeePerGas: parseGwei("1") });
    const tx = await submitAs("sign_transaction", "ACTIVITY_TYPE_SIGN_TRANSACTION", { privateKeyId, type: "TRANSACTION_TYPE_ETHEREUM", unsignedTransaction: unsigned.slice(2) });
    const { signedTransaction } = resultOf(tx, "signTransactionResult");
    expect(await recoverTransactionAddress({ serializedTransaction: `0x${signedTransaction}` as never })).toBe(address);
  });

  it("refuses a V1 signer that is not a private key (a wallet account's address), naming privateKeyId", async () => {
    const { accounts } = await sdkClient(emu).getWalletAccounts({ walletId: emu.info.walletId! });
    const r = await rawPost(
      emu,
      "/public/v1/submit/sign_raw_payload",
      submitBody(emu, "ACTIVITY_TYPE_SIGN_RAW_PAYLOAD", { privateKeyId: accounts[0]!.address, payload: keccak256("0x00"), encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" }),
    );
    expect(r.status).toBe(400);
    expect(r.json.details.find((d: any) => d.fieldViolations).fieldViolations[0].field).toBe("parameters.privateKeyId");
  });
});

describe("policies, first versions (selectors)", () => {
  it("create_policy V1 and V2 policies decide as their selectors say; update_policy V1 renames one", async () => {
    const user = await createApiKeyUser(emu, `selectors ${now()}`);
    const tag = (name: string) => rawPost(emu, "/public/v1/submit/create_user_tag", submitBody(emu, "ACTIVITY_TYPE_CREATE_USER_TAG", { userTagName: name, userIds: [] }), { key: user.key });
    expect((await tag(`before ${now()}`)).status).toBe(403);

    const v1 = await submitAs("create_policy", "ACTIVITY_TYPE_CREATE_POLICY", {
      policyName: `v1 ${now()}`,
      selectors: [{ subject: "activity.type", operator: "OPERATOR_EQUAL", target: "ACTIVITY_TYPE_CREATE_USER_TAG" }],
      effect: "EFFECT_ALLOW",
    });
    const { policyId } = resultOf(v1, "createPolicyResult");
    expect((await tag(`allowed ${now()}`)).status).toBe(200);
    const v2 = await submitAs("create_policy", "ACTIVITY_TYPE_CREATE_POLICY_V2", {
      policyName: `v2 ${now()}`,
      selectors: [{ subject: "activity.type", operator: "OPERATOR_IN", targets: ["ACTIVITY_TYPE_CREATE_USER_TAG", "ACTIVITY_TYPE_DELETE_USER_TAGS"] }],
      effect: "EFFECT_DENY",
      notes: "v2",
    });
    resultOf(v2, "createPolicyResult");
    expect((await tag(`denied ${now()}`)).status).toBe(403);
    await sdkClient(emu).deletePolicy({ policyId: resultOf(v2, "createPolicyResult").policyId });

    const renamed = `renamed ${now()}`;
    const up = await submitAs("update_policy", "ACTIVITY_TYPE_UPDATE_POLICY", { policyId, policyName: renamed });
    expect(resultOf(up, "updatePolicyResult")).toEqual({ policyId });
    expect((await sdkClient(emu).getPolicy({ policyId })).policy.policyName).toBe(renamed);
    await sdkClient(emu).deletePolicy({ policyId });
  });

  it("refuses a selector without a subject path, naming it", async () => {
    const r = await rawPost(
      emu,
      "/public/v1/submit/create_policy",
      submitBody(emu, "ACTIVITY_TYPE_CREATE_POLICY_V2", { policyName: `bad ${now()}`, selectors: [{ subject: "not a path", operator: "OPERATOR_EQUAL", targets: ["x"] }], effect: "EFFECT_ALLOW" }),
    );
    expect(r.status).toBe(400);
    expect(r.json.details.find((d: any) => d.fieldViolations).fieldViolations[0].field).toBe("parameters.selectors[0].subject");
  });

  it("a policy matches an older activity.type: a user allowed ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4 may send V4 and not V8", async () => {
    const user = await createApiKeyUser(emu, `v4 only ${now()}`);
    const { policyId } = await sdkClient(emu).createPolicy({
      policyName: `v4 only ${now()}`,
      effect: "EFFECT_ALLOW",
      consensus: `approvers.any(user, user.id == '${user.id}')`,
      condition: "activity.type == 'ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4' && activity.kind == 'CREATE_SUB_ORGANIZATION'",
      notes: "",
    });
    const rootKey = newP256KeyPair();
    const v4 = await submitAs(
      "create_sub_organization",
      "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4",
      { subOrganizationName: `policy v4 ${now()}`, rootUsers: [{ userName: "root", apiKeys: [keyV1("k", rootKey)], authenticators: [] }], rootQuorumThreshold: 1 },
      user.key,
    );
    expect(resultOf(v4, "createSubOrganizationResultV4").subOrganizationId).toBeTruthy();
    const v8 = await rawPost(
      emu,
      "/public/v1/submit/create_sub_organization",
      submitBody(emu, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", {
        subOrganizationName: `policy v8 ${now()}`,
        rootUsers: [{ userName: "root", apiKeys: [{ ...keyV1("k", rootKey), curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
        rootQuorumThreshold: 1,
      }),
      { key: user.key },
    );
    expect([v8.status, v8.json.code]).toEqual([403, 7]);
    await sdkClient(emu).deletePolicy({ policyId });
  });
});

describe("auth flows, first versions", () => {
  it("email_auth V1 mails a credential bundle to the user with that email, result emailAuthResult", async () => {
    const email = `email-auth-v1-${now()}@example.com`;
    const { userIds } = await sdkClient(emu).createUsers({ users: [{ userName: email, userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    const a = await submitAs("email_auth", "ACTIVITY_TYPE_EMAIL_AUTH", { email, targetPublicKey: generateP256KeyPair().publicKey });
    expect(resultOf(a, "emailAuthResult").userId).toBe(userIds[0]);
    expect((await lastMail(emu, email)).credentialBundle).toBeTruthy();
  });

  it("create_read_write_session V1 makes the session of the user its email names", async () => {
    const email = `rws-v1-${now()}@example.com`;
    const { userIds } = await sdkClient(emu).createUsers({ users: [{ userName: email, userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    const a = await submitAs("create_read_write_session", "ACTIVITY_TYPE_CREATE_READ_WRITE_SESSION", { targetPublicKey: generateP256KeyPair().publicKey, email });
    const r = resultOf(a, "createReadWriteSessionResult");
    expect(r).toMatchObject({ organizationId: emu.info.organizationId, userId: userIds[0], username: email });
    const { apiKeys } = await sdkClient(emu).getApiKeys({ userId: userIds[0] });
    expect(apiKeys.map((k) => k.apiKeyId)).toContain(r.apiKeyId);
  });

  it("init_otp_auth V1 sends a 9-character code (V2's documented defaults) under the app name of its email customization", async () => {
    const email = `otp-auth-v1-${now()}@example.com`;
    await sdkClient(emu).createUsers({ users: [{ userName: email, userEmail: email, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    const a = await submitAs("init_otp_auth", "ACTIVITY_TYPE_INIT_OTP_AUTH", { otpType: "OTP_TYPE_EMAIL", contact: email, emailCustomization: { appName: "Old App" } });
    expect(Object.keys(resultOf(a, "initOtpAuthResult"))).toEqual(["otpId"]);
    const mail = await lastMail(emu, email);
    expect(mail.otpCode).toMatch(/^[0-9A-Z]{9}$/);
    expect(mail.subject).toContain("Old App");
  });
});

describe("a type the path does not accept", () => {
  const SUB_ORG_TYPES = ["V8", "V7", "V6", "V5", "V4", "V3", "V2"].map((v) => `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_${v}`).concat("ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION");

  it.each(["ACTIVITY_TYPE_CREATE_ORGANIZATION", "ACTIVITY_TYPE_CREATE_WALLET", "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V9"])("%s at create_sub_organization: 400 naming type and the eight it accepts, nothing written", async (type) => {
    const before = storeCounts(emu);
    const r = await rawPost(emu, "/public/v1/submit/create_sub_organization", submitBody(emu, type, { subOrganizationName: "x", rootUsers: [], rootQuorumThreshold: 1 }));
    expect([r.status, r.json.code]).toEqual([400, 3]);
    expect(r.json.message).toBe(`bad request body: type: invalid value, expected one of ${SUB_ORG_TYPES.join(", ")}`);
    expect(r.json.details.find((d: any) => d.fieldViolations).fieldViolations[0].field).toBe("type");
    expect(storeCounts(emu)).toEqual(before);
  });

  it("execute_swap takes V2 only, as its document says", async () => {
    const r = await rawPost(emu, "/public/v1/submit/execute_swap", submitBody(emu, "ACTIVITY_TYPE_EXECUTE_SWAP", {}));
    expect([r.status, r.json.message]).toEqual([400, "bad request body: type: invalid value, expected one of ACTIVITY_TYPE_EXECUTE_SWAP_V2"]);
  });
});
