/**
 * The errors page's messages (tkhq/docs api-reference/overview/errors.mdx, "Detailed error
 * messages"), each provoked through the official SDK. The expected message, code, status and
 * turnkeyErrorCode are written here from the docs, not read from the emulator's catalogue: this
 * file is the independent oracle for emulator/core/error-catalogue.ts.
 *
 * Each case calls the SDK method (its error carries code, message and details) and posts the
 * very request the SDK stamps (its `stamp<Method>`) to read the HTTP status; nothing is written.
 * The stamp cases an SDK cannot send (no stamp, a malformed or wrong one, a passkey's) post a
 * raw body with exactly the stamp header under test.
 */
import { encode } from "cbor-x";
import { beforeAll, describe, expect, it } from "vitest";
import {
  advanceClock,
  createApiKeyUser,
  devKey,
  newP256KeyPair,
  rawPost,
  readJson,
  refusal,
  sdkClient,
  stampBody,
  storeCounts,
  submitBody,
  violatedField,
  type KeyPair,
} from "./support.js";
import { SoftwareAuthenticator } from "./software-authenticator.js";
import { useTestEmulator } from "./use-test-emulator.js";

const emu = useTestEmulator();
const ETH = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" } as const;

type Method = string;
/** `prefix`: text the service writes before the documented message (only the expired-key message has one). */
type Expected = { message: string; code: number; status: number; turnkeyErrorCode: string; field?: string; prefix?: string };
/** Who calls: the dev key in the seeded organization unless told otherwise. */
type As = { key?: KeyPair; organizationId?: string };

/**
 * Calls `method` through @turnkey/sdk-server with `input`, then posts the SDK's own stamped
 * request for it, and checks both answers against the documented error.
 */
async function expectDocumented(method: Method, input: unknown, want: Expected, as: As = {}): Promise<void> {
  const client = sdkClient(emu, as.key, as.organizationId) as unknown as Record<string, (i: unknown) => Promise<unknown>>;
  const before = storeCounts(emu);
  const err = await refusal(client[method]!(input));
  // The SDK's message is `Turnkey error <code>: <the service's message> (Details: ...)`.
  const message = err.message.replace(/^Turnkey error \d+: /, "");
  const wanted = `${want.prefix ?? ""}${want.message}`;
  expect(message.startsWith(wanted), `"${message}" starts with "${wanted}"`).toBe(true);
  expect(err.code).toBe(want.code);
  expect(err.details).toEqual(expect.arrayContaining([expect.objectContaining({ turnkeyErrorCode: want.turnkeyErrorCode })]));
  if (want.field) expect(violatedField(err)).toBe(want.field);

  const stampMethod = `stamp${method[0]!.toUpperCase()}${method.slice(1)}`;
  const signed = (await client[stampMethod]!(input)) as { body: string; url: string; stamp: { stampHeaderName: string; stampHeaderValue: string } };
  const res = await fetch(signed.url, { method: "POST", headers: { "content-type": "application/json", [signed.stamp.stampHeaderName]: signed.stamp.stampHeaderValue }, body: signed.body });
  expect(res.status).toBe(want.status);
  const json = await readJson(res);
  expect(json.message.startsWith(wanted), `"${json.message}" starts with "${wanted}"`).toBe(true);
  expect(json.code).toBe(want.code);
  expect(storeCounts(emu)).toEqual(before);
}

/** Posts a create_wallet body with exactly `headers` as its stamp (none, crafted or wrong) and checks the documented error. */
async function expectRawDocumented(headers: Record<string, string>, want: Expected, body = submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "stamped", accounts: [ETH] })): Promise<void> {
  const before = storeCounts(emu);
  const r = await rawPost(emu, "/public/v1/submit/create_wallet", body, { key: null, headers });
  expect(r.status).toBe(want.status);
  expect(r.json.message.startsWith(want.message), `"${r.json.message}" starts with "${want.message}"`).toBe(true);
  expect(r.json.code).toBe(want.code);
  expect(r.json.details).toEqual(expect.arrayContaining([expect.objectContaining({ turnkeyErrorCode: want.turnkeyErrorCode })]));
  expect(storeCounts(emu)).toEqual(before);
}

const unauthenticated = (message: string, turnkeyErrorCode: string): Expected => ({ message, code: 16, status: 401, turnkeyErrorCode });
const b64u = (s: string) => Buffer.from(s).toString("base64url");

/** A sub-organization of the seeded one whose root user holds `key` (and `authenticators`); gives its id. */
async function subOrganization(name: string, key: KeyPair, authenticators: unknown[] = []): Promise<string> {
  const sub = await sdkClient(emu).createSubOrganization({
    subOrganizationName: name,
    rootQuorumThreshold: 1,
    rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: authenticators as never, oauthProviders: [] }],
  });
  return sub.subOrganizationId;
}

const invalid = (message: string, field?: string): Expected => ({ message, code: 3, status: 400, turnkeyErrorCode: "REQUEST_INVALID", field });

let walletId: string;
beforeAll(async () => {
  const w = await sdkClient(emu).createWallet({ walletName: "documented errors", accounts: [ETH] });
  walletId = w.walletId;
});

describe("wallet account parameters (errors.mdx:98-102)", () => {
  it('"invalid path format" for a path format other than PATH_FORMAT_BIP32', async () => {
    await expectDocumented("createWalletAccounts", { walletId, accounts: [{ ...ETH, pathFormat: "PATH_FORMAT_SLIP10" }] }, invalid("invalid path format", "parameters.accounts[0].pathFormat"));
  });

  it('"invalid path" for a path already used in the wallet', async () => {
    await expectDocumented("createWalletAccounts", { walletId, accounts: [ETH] }, invalid("invalid path", "parameters.accounts[0].path"));
  });

  it('"invalid address format" for an unknown address format', async () => {
    await expectDocumented("createWalletAccounts", { walletId, accounts: [{ ...ETH, addressFormat: "ADDRESS_FORMAT_NOPE" }] }, invalid("invalid address format", "parameters.accounts[0].addressFormat"));
  });

  it('"invalid address format" for a private key address format its curve cannot hold', async () => {
    await expectDocumented(
      "createPrivateKeys",
      { privateKeys: [{ privateKeyName: "ed key", curve: "CURVE_ED25519", privateKeyTags: [], addressFormats: ["ADDRESS_FORMAT_ETHEREUM"] }] },
      invalid("invalid address format", "parameters.privateKeys[0].addressFormats[0]"),
    );
  });

  it('"invalid curve" for an unknown curve and for a curve the address format cannot use', async () => {
    await expectDocumented("createWalletAccounts", { walletId, accounts: [{ ...ETH, curve: "CURVE_NOPE" }] }, invalid("invalid curve", "parameters.accounts[0].curve"));
    await expectDocumented("createWalletAccounts", { walletId, accounts: [{ ...ETH, curve: "CURVE_ED25519", path: "m/44'/60'/0'/0'/9'" }] }, invalid("invalid curve", "parameters.accounts[0].curve"));
  });

  it('"curve required" when an account has no curve', async () => {
    const { curve: _curve, ...noCurve } = ETH;
    await expectDocumented("createWalletAccounts", { walletId, accounts: [noCurve] }, invalid("curve required", "parameters.accounts[0].curve"));
  });
});

describe("sub-organization wallet (errors.mdx:97)", () => {
  it('"missing wallet params" when the new wallet omits an account parameter', async () => {
    const { path: _path, ...noPath } = ETH;
    const key = newP256KeyPair();
    await expectDocumented(
      "createSubOrganization",
      {
        subOrganizationName: "missing wallet params",
        rootQuorumThreshold: 1,
        rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
        wallet: { walletName: "w", accounts: [noPath] },
      },
      invalid("missing wallet params", "parameters.wallet.accounts[0].path"),
    );
  });
});

describe("sign_raw_payload (errors.mdx:103-104)", () => {
  let signWith: string;
  beforeAll(async () => {
    const { accounts } = await sdkClient(emu).getWalletAccounts({ walletId });
    signWith = accounts[0]!.address;
  });

  it('"invalid payload encoding" for an unknown encoding', async () => {
    await expectDocumented("signRawPayload", { signWith, payload: "00", encoding: "PAYLOAD_ENCODING_BASE64", hashFunction: "HASH_FUNCTION_SHA256" }, invalid("invalid payload encoding", "parameters.encoding"));
  });

  it('"invalid hash function" for an unknown hash function and for one the key cannot use', async () => {
    await expectDocumented("signRawPayload", { signWith, payload: "00", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_MD5" }, invalid("invalid hash function", "parameters.hashFunction"));
    await expectDocumented(
      "signRawPayload",
      { signWith, payload: "00", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NOT_APPLICABLE" },
      invalid("invalid hash function", "parameters.hashFunction"),
    );
  });
});

describe("API keys and authenticators (errors.mdx:93-96)", () => {
  it('"invalid api key expiration" for an expiration that is not a positive whole number', async () => {
    const key = newP256KeyPair();
    for (const expirationSeconds of ["-5", "1.5", "soon"]) {
      await expectDocumented(
        "createApiKeys",
        { userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256", expirationSeconds }] },
        invalid("invalid api key expiration", "parameters.apiKeys[0].expirationSeconds"),
      );
    }
  });

  it('"missing parameter: user authenticator attestation" when the attestation is absent', async () => {
    const { attestation: _a, ...reg } = new SoftwareAuthenticator().registration("no attestation");
    await expectDocumented("createAuthenticators", { userId: emu.info.rootUserId, authenticators: [reg] }, invalid("missing parameter: user authenticator attestation", "parameters.authenticators[0].attestation"));
  });

  it('"invalid authenticator attestation" for an attestation that does not verify', async () => {
    const reg = new SoftwareAuthenticator().registration("bad attestation");
    await expectDocumented(
      "createAuthenticators",
      { userId: emu.info.rootUserId, authenticators: [{ ...reg, challenge: "c29tZXRoaW5nIGVsc2U" }] },
      invalid("invalid authenticator attestation", "parameters.authenticators[0].challenge"),
    );
    await expectDocumented(
      "createAuthenticators",
      { userId: emu.info.rootUserId, authenticators: [{ ...reg, attestation: { ...reg.attestation, clientDataJson: "bm90IGpzb24" } }] },
      invalid("invalid authenticator attestation", "parameters.authenticators[0].attestation.clientDataJson"),
    );
  });

  it('"missing parameter: user authenticator attestation auth data" when the attestation object has no authData', async () => {
    const reg = new SoftwareAuthenticator().registration("no auth data");
    const attestationObject = Buffer.from(encode({ fmt: "none", attStmt: {} })).toString("base64url");
    await expectDocumented(
      "createAuthenticators",
      { userId: emu.info.rootUserId, authenticators: [{ ...reg, attestation: { ...reg.attestation, attestationObject } }] },
      invalid("missing parameter: user authenticator attestation auth data", "parameters.authenticators[0].attestation.attestationObject"),
    );
  });
});

describe("wallet accounts of the organization (errors.mdx:109-111)", () => {
  it('"invalid wallet account UUID" for an id that is not a UUID', async () => {
    await expectDocumented("deleteWalletAccounts", { walletAccountIds: ["not-a-uuid"], deleteWithoutExport: true }, invalid("invalid wallet account UUID", "parameters.walletAccountIds[0]"));
  });

  it('"wallet account not part of your organization" for an account of another organization', async () => {
    const key = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "holds a foreign account",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "r", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      wallet: { walletName: "w", accounts: [ETH] },
    });
    const { accounts } = await sdkClient(emu, key, sub.subOrganizationId).getWalletAccounts({ walletId: sub.wallet!.walletId });
    await expectDocumented(
      "deleteWalletAccounts",
      { walletAccountIds: [accounts[0]!.walletAccountId], deleteWithoutExport: true },
      invalid("wallet account not part of your organization", "parameters.walletAccountIds[0]"),
    );
  });

  it('"wallet account has not been exported" when deleting an unexported account without deleteWithoutExport', async () => {
    const { accounts } = await sdkClient(emu).getWalletAccounts({ walletId });
    await expectDocumented("deleteWalletAccounts", { walletAccountIds: [accounts[0]!.walletAccountId] }, {
      ...invalid("wallet account has not been exported", "parameters.deleteWithoutExport"),
      turnkeyErrorCode: "WALLET_ACCOUNT_NOT_EXPORTED",
    });
  });
});

describe("OAuth2 parameters (errors.mdx:115-119)", () => {
  const authenticate = { oauth2CredentialId: "4b2b3c4d-1111-4222-8333-944445555666", authCode: "code", redirectUri: "http://localhost/cb", codeVerifier: "verifier", nonce: "n" };

  it('"auth_code must be set", "code_verifier must be set", "redirect_uri must be set", "oauth2_credential_id must be set"', async () => {
    await expectDocumented("oauth2Authenticate", { ...authenticate, authCode: "" }, invalid("auth_code must be set", "parameters.authCode"));
    const { codeVerifier: _v, ...noVerifier } = authenticate;
    await expectDocumented("oauth2Authenticate", noVerifier, invalid("code_verifier must be set", "parameters.codeVerifier"));
    await expectDocumented("oauth2Authenticate", { ...authenticate, redirectUri: "" }, invalid("redirect_uri must be set", "parameters.redirectUri"));
    await expectDocumented("oauth2Authenticate", { ...authenticate, oauth2CredentialId: "" }, invalid("oauth2_credential_id must be set", "parameters.oauth2CredentialId"));
  });

  it('"client_id must be set"', async () => {
    await expectDocumented("createOauth2Credential", { provider: "OAUTH2_PROVIDER_X", clientId: "", encryptedClientSecret: "secret" }, invalid("client_id must be set", "parameters.clientId"));
  });
});

describe("request bodies and organizations (errors.mdx:85-92, 108, 113)", () => {
  it('"bad request body" for a body the contract refuses', async () => {
    await expectDocumented("createWallet", { walletName: 42, accounts: [ETH] }, invalid("bad request body", "parameters.walletName"));
  });

  it('"malformed organization ID provided"', async () => {
    await expectDocumented("createWallet", { organizationId: "not-a-uuid", walletName: "x", accounts: [ETH] }, { ...invalid("malformed organization ID provided", "organizationId"), turnkeyErrorCode: "INVALID_ORGANIZATION_ID" });
  });

  it('"no organization found with the given ID"', async () => {
    await expectDocumented("createWallet", { organizationId: "00000000-0000-4000-8000-000000000000", walletName: "x", accounts: [ETH] }, {
      message: "no organization found with the given ID",
      code: 5,
      status: 404,
      turnkeyErrorCode: "ORGANIZATION_NOT_FOUND",
    });
  });

  it('"policy label must be unique", "invalid policy consensus", "invalid policy condition"', async () => {
    const policy = { policyName: "unique label", effect: "EFFECT_ALLOW" as const, consensus: "approvers.count() >= 1", condition: "true", notes: "" };
    await sdkClient(emu).createPolicy(policy);
    await expectDocumented("createPolicy", policy, invalid("policy label must be unique", "parameters.policyName"));
    await expectDocumented("createPolicy", { ...policy, policyName: "bad consensus", consensus: "approvers.count( >= 1" }, invalid("invalid policy consensus"));
    await expectDocumented("createPolicy", { ...policy, policyName: "bad condition", condition: "activity.type == " }, invalid("invalid policy condition"));
  });

  it('"quorum threshold must be non-zero integer" and "quorum users missing"', async () => {
    await expectDocumented("updateRootQuorum", { threshold: 0, userIds: [emu.info.rootUserId] }, invalid("quorum threshold must be non-zero integer", "parameters.threshold"));
    await expectDocumented("updateRootQuorum", { threshold: 1, userIds: [] }, invalid("quorum users missing", "parameters.userIds"));
  });

  it('"invalid email address"', async () => {
    await expectDocumented("createUsers", { users: [{ userName: "e", userEmail: "not an email", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] }, {
      ...invalid("invalid email address"),
      turnkeyErrorCode: "INVALID_EMAIL",
    });
  });

  it('"No activity found with fingerprint. Consensus activities must target an existing activity by fingerprint"', async () => {
    await expectDocumented("approveActivity", { fingerprint: "sha256:0000" }, {
      message: "No activity found with fingerprint. Consensus activities must target an existing activity by fingerprint",
      code: 5,
      status: 404,
      turnkeyErrorCode: "UNSPECIFIED",
    });
  });
});

describe("organizations a caller may address (errors.mdx:9,108,135,300-305,865-873)", () => {
  // The page's example answer: a request targeting a sub-organization whose voters are in the parent.
  it('"organization mismatch" for a parent organization\'s key writing in its sub-organization', async () => {
    const sub = await subOrganization("parent cannot write", newP256KeyPair());
    const parent = emu.info.organizationId;
    await expectDocumented(
      "createWallet",
      { walletName: "from the parent", accounts: [ETH] },
      { message: `organization mismatch: request is targeting organization ("${sub}"), but voters are in organization ("${parent}")`, code: 3, status: 400, turnkeyErrorCode: "ORGANIZATION_MISMATCH", field: "organizationId" },
      { organizationId: sub },
    );
  });

  it('"organization mismatch" for a sub-organization\'s key writing in its parent', async () => {
    const key = newP256KeyPair();
    const sub = await subOrganization("sub cannot write upward", key);
    const parent = emu.info.organizationId;
    await expectDocumented(
      "createWallet",
      { walletName: "from the sub-organization", accounts: [ETH] },
      { message: `organization mismatch: request is targeting organization ("${parent}"), but voters are in organization ("${sub}")`, code: 3, status: 400, turnkeyErrorCode: "ORGANIZATION_MISMATCH", field: "organizationId" },
      { key, organizationId: parent },
    );
  });

  it('"request not authorized" for a sub-organization\'s key reading its parent', async () => {
    const key = newP256KeyPair();
    await subOrganization("sub cannot read upward", key);
    await expectDocumented("getWallets", {}, { message: "request not authorized", code: 7, status: 403, turnkeyErrorCode: "REQUEST_NOT_AUTHORIZED" }, { key, organizationId: emu.info.organizationId });
  });
});

describe("OIDC tokens (errors.mdx:112)", () => {
  it('"invalid OIDC token" for a token that is not a JWT', async () => {
    await expectDocumented(
      "createOauthProviders",
      { userId: emu.info.rootUserId, oauthProviders: [{ providerName: "p", oidcToken: "not-a-jwt" }] },
      { ...invalid("invalid OIDC token", "parameters.oauthProviders[0].oidcToken"), turnkeyErrorCode: "INVALID_OIDC_TOKEN" },
    );
  });
});

describe("per-user maximums (errors.mdx:142-143)", () => {
  const maximum = (message: string): Expected => ({ message, code: 8, status: 429, turnkeyErrorCode: "RATE_LIMIT_EXCEEDED" });

  it('"user has exceeded maximum authenticators" for an eleventh passkey', async () => {
    const { id } = await createApiKeyUser(emu, "many passkeys");
    const passkeys = (n: number) => Array.from({ length: n }, (_, i) => new SoftwareAuthenticator().registration(`passkey ${i}`));
    await sdkClient(emu).createAuthenticators({ userId: id, authenticators: passkeys(5) });
    await expectDocumented("createAuthenticators", { userId: id, authenticators: passkeys(6) }, maximum("user has exceeded maximum authenticators"));
  });

  it('"user has exceeded maximum long-lived api keys" for an eleventh key without expiry', async () => {
    const { id } = await createApiKeyUser(emu, "many keys");
    const apiKeys = Array.from({ length: 10 }, (_, i) => ({ apiKeyName: `k${i}`, publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }));
    await expectDocumented("createApiKeys", { userId: id, apiKeys }, maximum("user has exceeded maximum long-lived api keys"));
  });
});

describe("stamps (errors.mdx:123-125, 127-131, 134)", () => {
  it('"cannot authenticate public API activity request without a stamp (X-Stamp/X-Stamp-Webauthn header)"', async () => {
    await expectRawDocumented({}, unauthenticated("cannot authenticate public API activity request without a stamp (X-Stamp/X-Stamp-Webauthn header)", "SIGNATURE_MISSING"));
  });

  it('"malformed activity stamp" for an X-Stamp that is not JSON or lacks a field', async () => {
    const want = unauthenticated("malformed activity stamp", "SIGNATURE_MISSING");
    await expectRawDocumented({ "X-Stamp": b64u("not json") }, want);
    await expectRawDocumented({ "X-Stamp": b64u(JSON.stringify({ publicKey: emu.info.apiPublicKey, scheme: "SIGNATURE_SCHEME_TK_API_P256" })) }, want);
  });

  it('"could not verify api key signature" for a stamp over another body', async () => {
    const stamp = await stampBody(submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "other body", accounts: [ETH] }), devKey(emu));
    await expectRawDocumented({ [stamp.stampHeaderName]: stamp.stampHeaderValue }, unauthenticated("could not verify api key signature", "SIGNATURE_INVALID"));
  });

  it('"could not find public key in organization or its parent organization" for an unknown API key', async () => {
    await expectDocumented("createWallet", { walletName: "stranger", accounts: [ETH] }, unauthenticated("could not find public key in organization or its parent organization", "PUBLIC_KEY_NOT_FOUND"), {
      key: newP256KeyPair(),
    });
  });

  it('"more than one suborg associated with a public key" for a key two sub-organizations hold, addressed to their parent', async () => {
    const key = newP256KeyPair();
    await subOrganization("shared key 1", key);
    await subOrganization("shared key 2", key);
    await expectDocumented("createWallet", { walletName: "whose?", accounts: [ETH] }, unauthenticated("more than one suborg associated with a public key", "CREDENTIAL_CONFLICT"), { key });
  });

  it('"could not verify WebAuthN signature" for a passkey stamp over another body', async () => {
    const passkey = new SoftwareAuthenticator();
    await sdkClient(emu).createAuthenticators({ userId: emu.info.rootUserId, authenticators: [passkey.registration("stamps")] });
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "passkey", accounts: [ETH] });
    await expectRawDocumented({ "X-Stamp-Webauthn": passkey.stamp(`${body} `) }, unauthenticated("could not verify WebAuthN signature", "SIGNATURE_INVALID"), body);
  });

  it('"credential ID could not be found in organization or its parent organization" for an unknown passkey', async () => {
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "unknown passkey", accounts: [ETH] });
    await expectRawDocumented(
      { "X-Stamp-Webauthn": new SoftwareAuthenticator().stamp(body) },
      unauthenticated("credential ID could not be found in organization or its parent organization", "CREDENTIAL_NOT_FOUND"),
      body,
    );
  });

  it('"more than one suborg associated with a credential ID" for a passkey two sub-organizations hold, addressed to their parent', async () => {
    const passkey = new SoftwareAuthenticator();
    await subOrganization("shared passkey 1", newP256KeyPair(), [passkey.registration("p1")]);
    await subOrganization("shared passkey 2", newP256KeyPair(), [passkey.registration("p2")]);
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "whose passkey?", accounts: [ETH] });
    await expectRawDocumented({ "X-Stamp-Webauthn": passkey.stamp(body) }, unauthenticated("more than one suborg associated with a credential ID", "CREDENTIAL_CONFLICT"), body);
  });

  // Last: it moves the emulated clock.
  it('"expired api key" for a key past its expiration (after the prefix @turnkey/core matches)', async () => {
    const key = newP256KeyPair();
    await sdkClient(emu).createApiKeys({ userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "short", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256", expirationSeconds: "1" }] });
    await advanceClock(emu, 2_000);
    await expectDocumented(
      "createWallet",
      { walletName: "too late", accounts: [ETH] },
      { ...unauthenticated("expired api key", "API_KEY_EXPIRED"), prefix: "rpc error: code = Unauthenticated desc = " },
      { key },
    );
  });
});
