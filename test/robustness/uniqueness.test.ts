/**
 * Uniqueness rules end to end through @turnkey/sdk-server: a repeated name fails with the
 * service's error and writes nothing, racing submissions leave exactly one resource, and a
 * name is free again once its holder is deleted or lives in another organization.
 */
import { describe, expect, it } from "vitest";
import { TurnkeyActivityError, TurnkeyRequestError } from "@turnkey/sdk-server";
import { newP256KeyPair, rawPost, sdkClient, storeCounts, submitBody } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";

const ETH = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" } as const;
const ethAt = (i: number) => ({ ...ETH, path: `m/44'/60'/0'/0/${i}` });

const emu = useTestEmulator();

/** The rpcStatus an SDK call was refused with. */
async function refusal(p: Promise<unknown>): Promise<{ code: number; message: string; details: any[] }> {
  const err = await p.then(
    () => {
      throw new Error("expected the call to be refused");
    },
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(TurnkeyRequestError);
  const r = err as TurnkeyRequestError;
  return { code: r.code, message: r.message, details: r.details ?? [] };
}

const fieldOf = (details: any[]) => details.find((d) => d["@type"] === "type.googleapis.com/google.rpc.BadRequest")?.fieldViolations?.[0]?.field;

describe("wallet labels", () => {
  it("a second wallet with the same name fails with 400 naming parameters.walletName, and writes nothing", async () => {
    const c = sdkClient(emu);
    await c.createWallet({ walletName: "treasury", accounts: [ETH] });
    const before = storeCounts(emu);
    const err = await refusal(c.createWallet({ walletName: "treasury", accounts: [ethAt(1)] }));
    expect(err.code).toBe(3);
    expect(err.message).toMatch(/wallet label must be unique/);
    expect(err.message).toContain("parameters.walletName");
    expect(fieldOf(err.details)).toBe("parameters.walletName");
    expect(storeCounts(emu)).toEqual(before);
    // The raw answer is an rpcStatus with HTTP 400.
    const raw = await rawPost(emu, "/public/v1/submit/create_wallet", submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "treasury", accounts: [ethAt(2)] }));
    expect(raw.status).toBe(400);
    expect(raw.json).toMatchObject({ code: 3, message: expect.stringMatching(/wallet label must be unique/) });
    expect(storeCounts(emu)).toEqual(before);
  });

  it("20 concurrent create_wallet with one name make exactly one wallet and one activity", async () => {
    const c = sdkClient(emu);
    const before = storeCounts(emu);
    // Distinct bodies (another account path each), so that none is answered as a duplicate request.
    const results = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => c.createWallet({ walletName: "race", accounts: [ethAt(i)] })));
    const ok = results.filter((r) => r.status === "fulfilled");
    expect(ok).toHaveLength(1);
    for (const r of results.filter((r) => r.status === "rejected")) {
      const reason = (r as PromiseRejectedResult).reason;
      expect(reason).toBeInstanceOf(TurnkeyRequestError);
      expect(reason.message).toMatch(/wallet label must be unique/);
      expect(reason).not.toBeInstanceOf(TurnkeyActivityError);
    }
    const { wallets } = await c.getWallets({});
    expect(wallets.filter((w) => w.walletName === "race")).toHaveLength(1);
    const after = storeCounts(emu);
    expect(after.wallets).toBe(before.wallets! + 1);
    expect(after.wallet_accounts).toBe(before.wallet_accounts! + 1);
    expect(after.activities).toBe(before.activities! + 1);
  });

  it("update_wallet cannot take another wallet's name; keeping its own name is fine", async () => {
    const c = sdkClient(emu);
    const a = await c.createWallet({ walletName: "rename-a", accounts: [ETH] });
    await c.createWallet({ walletName: "rename-b", accounts: [ETH] });
    const err = await refusal(c.updateWallet({ walletId: a.walletId, walletName: "rename-b" }));
    expect(err.message).toMatch(/wallet label must be unique/);
    await c.updateWallet({ walletId: a.walletId, walletName: "rename-a" });
    expect((await c.getWallet({ walletId: a.walletId })).wallet.walletName).toBe("rename-a");
  });

  it("a deleted wallet's name is free again, and other organizations do not share the rule", async () => {
    const c = sdkClient(emu);
    const w = await c.createWallet({ walletName: "reused", accounts: [ETH] });
    await c.deleteWallets({ walletIds: [w.walletId], deleteWithoutExport: true });
    await c.createWallet({ walletName: "reused", accounts: [ETH] });

    const key = newP256KeyPair();
    const sub = await c.createSubOrganization({
      subOrganizationName: "uniqueness sub-org",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "u", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
      wallet: { walletName: "reused", accounts: [ETH] },
    });
    const inSub = sdkClient(emu, key, sub.subOrganizationId);
    expect((await inSub.getWallets({})).wallets.map((x) => x.walletName)).toEqual(["reused"]);
    expect((await refusal(inSub.createWallet({ walletName: "reused", accounts: [ethAt(1)] }))).message).toMatch(/wallet label must be unique/);
  });
});

describe("the other rules", () => {
  it("private key names", async () => {
    const c = sdkClient(emu);
    const key = { privateKeyName: "signer", curve: "CURVE_SECP256K1" as const, privateKeyTags: [] as string[], addressFormats: ["ADDRESS_FORMAT_ETHEREUM" as const] };
    await c.createPrivateKeys({ privateKeys: [key] });
    const before = storeCounts(emu);
    const err = await refusal(c.createPrivateKeys({ privateKeys: [{ ...key, addressFormats: [] as (typeof key.addressFormats)[number][] }] }));
    expect(err.code).toBe(3);
    expect(err.message).toMatch(/private key name already in use: signer/);
    expect(storeCounts(emu)).toEqual(before);
  });

  it("policy labels (the reference's message)", async () => {
    const c = sdkClient(emu);
    const p = { policyName: "only-once", effect: "EFFECT_ALLOW", condition: "activity.type == 'ACTIVITY_TYPE_SIGN_RAW_PAYLOAD_V2'", notes: "" } as const;
    await c.createPolicy(p);
    const err = await refusal(c.createPolicy({ ...p, notes: "again" }));
    expect(err.message).toMatch(/^Turnkey error 3: policy label must be unique \(/);
  });

  it("user tag and private key tag names, each within its kind", async () => {
    const c = sdkClient(emu);
    await c.createUserTag({ userTagName: "ops", userIds: [] });
    expect((await refusal(c.createUserTag({ userTagName: "ops", userIds: [] }))).message).toMatch(/user tag name already in use: ops/);
    await c.createPrivateKeyTag({ privateKeyTagName: "ops", privateKeyIds: [] });
    expect((await refusal(c.createPrivateKeyTag({ privateKeyTagName: "ops", privateKeyIds: [] }))).message).toMatch(/private key tag name already in use: ops/);
  });

  it("an API key's public key once per user", async () => {
    const c = sdkClient(emu);
    const key = newP256KeyPair();
    const userId = emu.info.rootUserId;
    await c.createApiKeys({ userId, apiKeys: [{ apiKeyName: "one", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }] });
    const err = await refusal(c.createApiKeys({ userId, apiKeys: [{ apiKeyName: "two", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }] }));
    expect(err.message).toMatch(/already exists for this user/);
  });

  it("an OAuth identity (iss, sub, aud) once per organization", async () => {
    const c = sdkClient(emu);
    const userId = emu.info.rootUserId;
    const minted = await fetch(`${emu.url}/emulator/v1/oidc/token`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ sub: "subject-1", aud: "client-1" }) });
    const oidcToken = ((await minted.json()) as { id_token: string }).id_token;
    await c.createOauthProviders({ userId, oauthProviders: [{ providerName: "first", oidcToken }] });
    const err = await refusal(c.createOauthProviders({ userId, oauthProviders: [{ providerName: "second", oidcToken }] }));
    expect(err.details.map((d) => d.turnkeyErrorCode)).toContain("OAUTH_PROVIDER_ALREADY_EXISTS");
  });
});
