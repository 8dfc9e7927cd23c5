import { beforeAll, describe, expect, it } from "vitest";
import { generateP256KeyPair } from "@turnkey/crypto";
import { mnemonicToAccount } from "viem/accounts";
import { newP256KeyPair, rawPost, sdkClient, storeCounts, submitBody, type KeyPair } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { SoftwareAuthenticator } from "../software-authenticator.js";
import { info, mintIdToken, type Info } from "./support.js";

const ETH = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" } as const;

const emu = useTestEmulator();
let i: Info;
let subOrgId: string;
let rootUserKey: KeyPair;
let passkey: SoftwareAuthenticator;
let address: string;
let idToken: string;

beforeAll(async () => {
  i = await info(emu);
  rootUserKey = newP256KeyPair();
  passkey = new SoftwareAuthenticator();
  idToken = await mintIdToken(emu, { sub: "google-123", aud: "my-client", email: "alice@example.com" });
  const r = await sdkClient(emu).createSubOrganization({
    subOrganizationName: "alice's org",
    rootQuorumThreshold: 1,
    rootUsers: [
      {
        userName: "alice",
        userEmail: "alice@example.com",
        userPhoneNumber: "+14155550100",
        apiKeys: [{ apiKeyName: "alice key", publicKey: rootUserKey.publicKey, curveType: "API_KEY_CURVE_P256" }],
        authenticators: [passkey.registration("alice passkey")],
        oauthProviders: [{ providerName: "google", oidcToken: idToken }],
      },
    ],
    wallet: { walletName: "alice wallet", accounts: [ETH] },
  });
  subOrgId = r.subOrganizationId;
  address = r.wallet!.addresses[0]!;
});

describe("create_sub_organization", () => {
  it("creates the sub-org with root user, credentials and a wallet whose address is a real BIP-32 derivation", async () => {
    const sub = sdkClient(emu, rootUserKey, subOrgId);
    const me = await sub.getWhoami({ organizationId: subOrgId });
    expect(me).toMatchObject({ organizationId: subOrgId, organizationName: "alice's org", username: "alice" });
    const { wallet } = await sub.getWallet({ walletId: (await sub.getWallets({})).wallets[0]!.walletId });
    const target = generateP256KeyPair();
    const { exportBundle } = await sub.exportWallet({ walletId: wallet.walletId, targetPublicKey: target.publicKeyUncompressed });
    const { decryptExportBundle } = await import("@turnkey/crypto");
    const mnemonic = await decryptExportBundle({ exportBundle, embeddedKey: target.privateKey, organizationId: subOrgId, returnMnemonic: true, dangerouslyOverrideSignerPublicKey: i.signerPublicKey });
    expect(mnemonicToAccount(mnemonic).address).toBe(address);
    const { oauthProviders } = await sub.getOauthProviders({ userId: me.userId });
    expect(oauthProviders).toMatchObject([{ providerName: "google", issuer: i.oidcIssuer, subject: "google-123", audience: "my-client" }]);
  });

  it("stamps with the root user's passkey against the sub-org and (resolved) against the parent id", async () => {
    for (const organizationId of [subOrgId, i.organizationId]) {
      const body = JSON.stringify({ organizationId });
      const r = await rawPost(emu, "/public/v1/query/whoami", body, { key: null, headers: { "X-Stamp-Webauthn": passkey.stamp(body) } });
      expect(r.status).toBe(200);
      expect(r.json.organizationId).toBe(subOrgId);
    }
  });

  it("rejects rootQuorumThreshold above the number of root users, writing nothing", async () => {
    const before = storeCounts(emu);
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", {
      subOrganizationName: "bad",
      rootQuorumThreshold: 2,
      rootUsers: [{ userName: "u", apiKeys: [{ apiKeyName: "k", publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const r = await rawPost(emu, "/public/v1/submit/create_sub_organization", body);
    expect(r.status).toBe(400);
    expect(r.json.details.find((d: any) => d.fieldViolations)?.fieldViolations[0].field).toBe("parameters.rootQuorumThreshold");
    expect(storeCounts(emu)).toEqual(before);
  });

  it("rejects a root user without any credential, and an OAuth provider from an untrusted issuer", async () => {
    const noCred = submitBody(emu, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", {
      subOrganizationName: "bad",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "u", apiKeys: [], authenticators: [], oauthProviders: [] }],
    });
    const r1 = await rawPost(emu, "/public/v1/submit/create_sub_organization", noCred);
    expect(r1.status).toBe(400);
    expect(r1.json.details.find((d: any) => d.fieldViolations)?.fieldViolations[0].field).toBe("parameters.rootUsers[0]");
    const forged = idToken.replace(/^[^.]+\.[^.]+/, (s) => s.slice(0, -2) + "AA");
    const r2 = await rawPost(emu, "/public/v1/submit/create_sub_organization", submitBody(emu, "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8", {
      subOrganizationName: "bad",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "u", apiKeys: [], authenticators: [], oauthProviders: [{ providerName: "g", oidcToken: forged }] }],
    }));
    expect(r2.status).toBe(400);
    expect(r2.json.details[0].turnkeyErrorCode).toBe("INVALID_OIDC_TOKEN");
  });

  it("refuses sub-org creation from inside a sub-org (INVALID_ACTIVITY_CALLER)", async () => {
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V8",
      timestampMs: String(Date.now()),
      organizationId: subOrgId,
      parameters: { subOrganizationName: "nested", rootQuorumThreshold: 1, rootUsers: [{ userName: "n", apiKeys: [{ apiKeyName: "k", publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }] },
    });
    const r = await rawPost(emu, "/public/v1/submit/create_sub_organization", body, { key: rootUserKey });
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("This activity cannot be called by sub-organizations");
    expect(r.json.details[0].turnkeyErrorCode).toBe("INVALID_ACTIVITY_CALLER");
  });
});

describe("parent access", () => {
  it("reads the sub-org's wallets but cannot write in it", async () => {
    const parent = sdkClient(emu, undefined, subOrgId);
    expect((await parent.getWallets({ organizationId: subOrgId })).wallets).toHaveLength(1);
    const r = await rawPost(emu, "/public/v1/submit/create_wallet", JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_WALLET", timestampMs: String(Date.now()), organizationId: subOrgId, parameters: { walletName: "w", accounts: [ETH] } }));
    // The errors page's example answer (errors.mdx:9): the voters are in the parent, the target is the sub-org.
    expect([r.status, r.json.code, r.json.details[0].turnkeyErrorCode]).toEqual([400, 3, "ORGANIZATION_MISMATCH"]);
    expect(r.json.message).toBe(`organization mismatch: request is targeting organization ("${subOrgId}"), but voters are in organization ("${emu.info.organizationId}")`);
  });
});

describe("list_suborgs", () => {
  const cases: [string, () => string][] = [
    ["NAME", () => "alice's org"],
    ["USERNAME", () => "alice"],
    ["EMAIL", () => "alice@example.com"],
    ["PHONE_NUMBER", () => "+14155550100"],
    ["CREDENTIAL_ID", () => passkey.credentialId],
    ["PUBLIC_KEY", () => rootUserKey.publicKey],
    ["WALLET_ACCOUNT_ADDRESS", () => address],
    ["OIDC_TOKEN", () => idToken],
    ["OAUTH_CLAIM", () => JSON.stringify({ issuer: i.oidcIssuer, subject: "google-123", audience: "my-client" })],
  ];
  it.each(cases)("finds the sub-org by %s and nothing for another value", async (filterType, value) => {
    const c = sdkClient(emu);
    expect((await c.getSubOrgIds({ filterType, filterValue: value() })).organizationIds).toEqual([subOrgId]);
    const other = filterType === "OIDC_TOKEN" ? await mintIdToken(emu, { sub: "nobody", aud: "my-client" }) : filterType === "OAUTH_CLAIM" ? JSON.stringify({ issuer: i.oidcIssuer, subject: "x", audience: "y" }) : "no-such-value";
    expect((await c.getSubOrgIds({ filterType, filterValue: other })).organizationIds).toEqual([]);
  });

  it("rejects an unknown filter type naming the field; lists verified contacts only in list_verified_suborgs", async () => {
    const r = await rawPost(emu, "/public/v1/query/list_suborgs", JSON.stringify({ organizationId: i.organizationId, filterType: "COLOR", filterValue: "x" }));
    expect(r.status).toBe(400);
    expect(r.json.details.find((d: any) => d.fieldViolations).fieldViolations[0].field).toBe("filterType");
    // The Google token vouched for alice's email (email_verified), her phone is unverified.
    const c = sdkClient(emu);
    expect((await c.getVerifiedSubOrgIds({ filterType: "EMAIL", filterValue: "alice@example.com" })).organizationIds).toEqual([subOrgId]);
    expect((await c.getVerifiedSubOrgIds({ filterType: "PHONE_NUMBER", filterValue: "+14155550100" })).organizationIds).toEqual([]);
  });

  it("pages by sub-org id", async () => {
    const c = sdkClient(emu);
    for (const n of ["p1", "p2"])
      await c.createSubOrganization({ subOrganizationName: n, rootQuorumThreshold: 1, rootUsers: [{ userName: n, apiKeys: [{ apiKeyName: "k", publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }] });
    const all = (await c.getSubOrgIds({})).organizationIds;
    expect(all.length).toBeGreaterThanOrEqual(3);
    const page1 = (await c.getSubOrgIds({ paginationOptions: { limit: "1" } })).organizationIds;
    const page2 = (await c.getSubOrgIds({ paginationOptions: { limit: "1", after: page1[0]! } })).organizationIds;
    expect([...page1, ...page2]).toEqual(all.slice(0, 2));
  });
});

describe("delete_sub_organization", () => {
  it("requires the export rule, is refused to the parent, and succeeds from inside once exported", async () => {
    const key = newP256KeyPair();
    const c = sdkClient(emu);
    const { subOrganizationId, wallet } = await c.createSubOrganization({
      subOrganizationName: "doomed",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "d", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      wallet: { walletName: "w", accounts: [ETH] },
    });
    let n = 0;
    const del = (k: KeyPair | undefined, params: object) =>
      rawPost(emu, "/public/v1/submit/delete_sub_organization", JSON.stringify({ type: "ACTIVITY_TYPE_DELETE_SUB_ORGANIZATION", timestampMs: String(Date.now() + n++), organizationId: subOrganizationId, parameters: params }), k ? { key: k } : {});
    const fromParent = await del(undefined, {});
    expect([fromParent.status, fromParent.json.details[0].turnkeyErrorCode]).toEqual([400, "ORGANIZATION_MISMATCH"]);
    const before = storeCounts(emu);
    const unexported = await del(key, {});
    expect(unexported.status).toBe(400);
    expect(unexported.json.details[0].turnkeyErrorCode).toBe("WALLET_ACCOUNT_NOT_EXPORTED");
    expect(storeCounts(emu)).toEqual(before);
    await sdkClient(emu, key, subOrganizationId).exportWallet({ walletId: wallet!.walletId, targetPublicKey: generateP256KeyPair().publicKeyUncompressed });
    const ok = await del(key, {});
    expect(ok.status).toBe(200);
    expect(ok.json.activity.result.deleteSubOrganizationResult).toEqual({ subOrganizationUuid: subOrganizationId });
    expect((await c.getSubOrgIds({})).organizationIds).not.toContain(subOrganizationId);
    const gone = await rawPost(emu, "/public/v1/query/whoami", JSON.stringify({ organizationId: subOrganizationId }), { key });
    expect(gone.status).toBe(404);
  });
});
