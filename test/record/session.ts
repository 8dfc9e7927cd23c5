/**
 * A session of an app's calls, made through a recording proxy with the official SDKs
 * (@turnkey/sdk-server for the coordinator, @turnkey/core's client for the auth proxy): the
 * organization read first, wallets and accounts, signing with wallet accounts and a private
 * key, an export and a read-write session (bundles), users and policies, a 2-of-2 consensus
 * with an approval, a policy denial, and an OTP signup and login through the auth proxy whose
 * session key then works in the new sub-organization. It gives every secret the session saw.
 */
import { Turnkey } from "@turnkey/sdk-server";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import { getClientSignatureMessageForLogin } from "@turnkey/core";
// @ts-expect-error no declaration file for the deep .mjs path (core exports the stamper only internally)
import { AttestedStamper } from "@turnkey/core/dist/__stampers__/attested/base.mjs";
import { ApiKeyStamper } from "@turnkey/api-key-stamper";
import { p256 } from "@noble/curves/nist.js";
import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, hexToBytes, utf8ToBytes } from "@noble/hashes/utils.js";
import { serializeTransaction, parseGwei } from "viem";
import type { RunningEmulator } from "../../emulator/index.js";
import { newP256KeyPair, type KeyPair } from "../support.js";
import { info, lastMail } from "../auth/support.js";
import { proxyClient } from "../proxy/support.js";

export type SessionHooks = {
  /** Just before bob signs with the session's private key (the organization's first reads are long done). */
  beforeBobSigns?: (ids: { privateKeyId: string }) => Promise<void>;
};

export type SessionResult = { secrets: string[]; counts: { bobSign: number } };

const client = (url: string, organizationId: string, key: KeyPair) =>
  new Turnkey({ apiBaseUrl: url, defaultOrganizationId: organizationId, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, activityPoller: { intervalMs: 20, numRetries: 2 } }).apiClient();

const ETH = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" } as const;
const SOL = { curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/501'/0'/0'", addressFormat: "ADDRESS_FORMAT_SOLANA" } as const;
const HASH = "0x" + "ab".repeat(32);

/** Raw r‖s hex ECDSA-P256 over SHA-256(message), as core's signWithApiKey makes a client signature. */
const signMessage = (message: string, key: KeyPair) => bytesToHex(p256.sign(sha256(utf8ToBytes(message)), hexToBytes(key.privateKey), { prehash: false }));

/** The X-Stamp-Attested header core's AttestedStamper makes (loginWithOtp's stamp_login). */
async function attestedStamp(body: string, key: KeyPair, token: string): Promise<{ stampHeaderName: string; stampHeaderValue: string }> {
  const signer = { sign: (payload: string, format: unknown) => new ApiKeyStamper({ apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey }).sign(payload, format as never) };
  const stamper = new AttestedStamper(signer);
  stamper.configure({ attestedIdentity: token, publicKey: key.publicKey, scheme: "STAMP_ATTESTED_SCHEME_P256_VERIFICATION_TOKEN" });
  return stamper.stamp(body);
}

/** Runs the session against `url` (the recorder) for the organization of `upstream` (read for OTP codes only). */
export async function runSession(url: string, upstream: RunningEmulator, hooks: SessionHooks = {}): Promise<SessionResult> {
  const secrets: string[] = [];
  const orgId = upstream.info.organizationId;
  const root = client(url, orgId, { publicKey: upstream.info.apiPublicKey!, privateKey: upstream.info.apiPrivateKey! });

  // The organization as the session finds it.
  await root.getWhoami({});
  await root.getOrganizationConfigs({});
  await root.getUsers({});
  await root.getPolicies({});
  const { wallets } = await root.getWallets({});
  const devWalletId = wallets[0]!.walletId;
  const devAccounts = (await root.getWalletAccounts({ walletId: devWalletId })).accounts;

  // Wallets, accounts, signing.
  const created = await root.createWallet({ walletName: "recorded wallet", accounts: [ETH, SOL] });
  const walletId = created.walletId;
  await root.getWallet({ walletId }).catch(() => undefined); // an upstream may fail it (a fault the drift test injects)
  await root.getWalletAccounts({ walletId });
  await root.createWalletAccounts({ walletId, accounts: [{ ...ETH, path: "m/44'/60'/0'/0/1" }] });
  const [eth, sol] = created.addresses as [string, string];
  await root.signRawPayload({ signWith: eth, payload: HASH, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
  await root.signRawPayloads({ signWith: eth, payloads: [HASH, "0x" + "cd".repeat(32)], encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
  await root.signRawPayload({ signWith: sol, payload: "68656c6c6f", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NOT_APPLICABLE" });
  const devEth = devAccounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_ETHEREUM")!.address;
  const unsigned = serializeTransaction({ type: "legacy", chainId: 11155111, nonce: 3, to: "0x0000000000000000000000000000000000000003", value: 1n, gas: 21000n, gasPrice: parseGwei("3") });
  await root.signTransaction({ signWith: devEth, unsignedTransaction: unsigned.slice(2), type: "TRANSACTION_TYPE_ETHEREUM" });
  const { privateKeys } = await root.createPrivateKeys({ privateKeys: [{ privateKeyName: "recorded key", curve: "CURVE_SECP256K1", addressFormats: ["ADDRESS_FORMAT_ETHEREUM"], privateKeyTags: [] }] });
  const privateKeyId = privateKeys[0]!.privateKeyId!;
  await root.signRawPayload({ signWith: privateKeyId, payload: HASH, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
  await root.getPrivateKey({ privateKeyId });

  // Bundles: an export and a read-write session, each sealed to a key the app made.
  const target = generateP256KeyPair();
  secrets.push((await root.exportWalletAccount({ address: eth, targetPublicKey: target.publicKeyUncompressed })).exportBundle);
  const sessionTarget = generateP256KeyPair();
  secrets.push((await root.createReadWriteSession({ targetPublicKey: sessionTarget.publicKeyUncompressed, apiKeyName: "rw", expirationSeconds: "900" })).credentialBundle);

  // Users and policies: a 2-of-2 consensus, an allowed signer, a denial.
  const aliceKey = newP256KeyPair();
  const bobKey = newP256KeyPair();
  const user = (userName: string, key: KeyPair) => ({ userName, apiKeys: [{ apiKeyName: "app", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" as const }], authenticators: [], oauthProviders: [], userTags: [] });
  const { userIds } = await root.createUsers({ users: [user("alice", aliceKey), user("bob", bobKey)] });
  const [alice, bob] = userIds as [string, string];
  const { policyId: twoOfTwo } = await root.createPolicy({
    policyName: "alice and bob sign together",
    effect: "EFFECT_ALLOW",
    condition: `activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && wallet.id == '${walletId}'`,
    consensus: `approvers.any(user, user.id == '${alice}') && approvers.any(user, user.id == '${bob}')`,
    notes: "",
  });
  await root.createPolicy({ policyName: "bob signs with the key", effect: "EFFECT_ALLOW", condition: `activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2' && private_key.id == '${privateKeyId}'`, consensus: `approvers.any(user, user.id == '${bob}')`, notes: "" });
  const aliceClient = client(url, orgId, aliceKey);
  const bobClient = client(url, orgId, bobKey);
  const proposal = await aliceClient.signRawPayload({ signWith: eth, payload: HASH, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
  if (proposal.activity.status !== "ACTIVITY_STATUS_CONSENSUS_NEEDED") throw new Error(`expected consensus, got ${proposal.activity.status}`);
  const approved = await bobClient.approveActivity({ fingerprint: proposal.activity.fingerprint });
  if (approved.activity.status !== "ACTIVITY_STATUS_COMPLETED") throw new Error(`expected completion, got ${approved.activity.status}`);
  await root.getActivity({ activityId: proposal.activity.id });
  await hooks.beforeBobSigns?.({ privateKeyId });
  let bobSign: number;
  try {
    await bobClient.signRawPayload({ signWith: privateKeyId, payload: HASH, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
    bobSign = 200;
  } catch {
    bobSign = 403;
  }
  await aliceClient.createWallet({ walletName: "alice may not", accounts: [] }).then(
    () => {
      throw new Error("alice's wallet should be denied");
    },
    () => undefined,
  );
  await root.getActivities({ filterByType: ["ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2", "ACTIVITY_TYPE_CREATE_WALLET"] });
  await root.deletePolicy({ policyId: twoOfTwo });
  await root.getPolicies({});

  // OTP signup and login through the auth proxy; the session key then acts in the new sub-organization.
  const px = proxyClient({ ...upstream, url, proxyUrl: url } as RunningEmulator);
  await px.proxyGetWalletKitConfig({});
  const email = "recorded-user@example.com";
  const verify = async (): Promise<string> => {
    const { otpId } = await px.proxyInitOtp({ otpType: "OTP_TYPE_EMAIL", contact: email });
    const code = (await lastMail(upstream, email)).otpCode!;
    secrets.push(code);
    const { verificationToken } = await px.proxyVerifyOtp({ otpId, otpCode: code });
    secrets.push(verificationToken);
    return verificationToken;
  };
  const signupKey = newP256KeyPair();
  const first = await verify();
  await px.proxyGetAccount({ filterType: "EMAIL", filterValue: email });
  const { organizationId: subOrgId, userId: subUserId } = await px.proxySignup({
    userEmail: email,
    userName: "recorded user",
    organizationName: "recorded sub-organization",
    verificationToken: first,
    apiKeys: [{ apiKeyName: "signup", publicKey: signupKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
    authenticators: [],
    oauthProviders: [],
  });
  await px.proxyGetAccount({ filterType: "EMAIL", filterValue: email });
  const sessionKey = newP256KeyPair();
  const { session } = await px.proxyOtpLogin({ verificationToken: await verify(), publicKey: sessionKey.publicKey, organizationId: subOrgId });
  secrets.push(session);
  const sub = client(url, subOrgId, sessionKey);
  await sub.getWhoami({ organizationId: subOrgId });
  const subWallet = await sub.createWallet({ organizationId: subOrgId, walletName: "sub wallet", accounts: [ETH] });
  await sub.signRawPayload({ organizationId: subOrgId, signWith: subWallet.addresses[0]!, payload: HASH, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NO_OP" });
  await sub.getWallets({ organizationId: subOrgId });
  await client(url, subOrgId, signupKey).getUser({ organizationId: subOrgId, userId: subUserId });

  // The OTP v2 flow @turnkey/core uses: the code sealed to the enclave's target, the token bound to a key.
  const { tlsFetcherPublicKey } = await info(upstream);
  const verifyV2 = async (key: KeyPair): Promise<string> => {
    const { otpId, otpEncryptionTargetBundle } = await px.proxyInitOtpV2({ otpType: "OTP_TYPE_EMAIL", contact: email });
    const code = (await lastMail(upstream, email)).otpCode!;
    const encryptedOtpBundle = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, key.publicKey, tlsFetcherPublicKey);
    const { verificationToken } = await px.proxyVerifyOtpV2({ otpId, encryptedOtpBundle });
    secrets.push(code, encryptedOtpBundle, verificationToken);
    return verificationToken;
  };
  const v2Key = newP256KeyPair();
  const v2Token = await verifyV2(v2Key);
  const { message } = getClientSignatureMessageForLogin({ verificationToken: v2Token, sessionPublicKey: v2Key.publicKey });
  const clientSignature = { publicKey: v2Key.publicKey, scheme: "CLIENT_SIGNATURE_SCHEME_API_P256" as const, message, signature: signMessage(message, v2Key) };
  secrets.push((await px.proxyOtpLoginV2({ verificationToken: v2Token, publicKey: v2Key.publicKey, clientSignature })).session);
  await client(url, subOrgId, v2Key).getWhoami({ organizationId: subOrgId });
  // core's loginWithOtp: stamp_login stamped with X-Stamp-Attested by the key the token binds.
  const attestedKey = newP256KeyPair();
  const attestedToken = await verifyV2(attestedKey);
  const body = JSON.stringify({ type: "ACTIVITY_TYPE_STAMP_LOGIN", timestampMs: String(Date.now()), organizationId: subOrgId, parameters: { publicKey: attestedKey.publicKey } });
  const stamp = await attestedStamp(body, attestedKey, attestedToken);
  const login = await fetch(`${url}/public/v1/submit/stamp_login`, { method: "POST", headers: { "content-type": "application/json", [stamp.stampHeaderName]: stamp.stampHeaderValue }, body });
  if (login.status !== 200) throw new Error(`stamp_login: HTTP ${login.status} ${await login.text()}`);
  secrets.push(((await login.json()) as { activity: { result: { stampLoginResult: { session: string } } } }).activity.result.stampLoginResult.session);
  await client(url, subOrgId, attestedKey).getWhoami({ organizationId: subOrgId });
  await root.getSubOrgIds({});
  return { secrets, counts: { bobSign } };
}
