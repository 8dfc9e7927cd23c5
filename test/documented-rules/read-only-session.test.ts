/**
 * Reads with a read-only session (tkhq/docs features/authentication/sessions/overview.mdx:26):
 * create_read_only_session "returns a session string that, if passed into an HTTP request via
 * `X-Session` header, gives permission to perform reads". @turnkey/sdk-browser's client
 * configured with `readOnlySession` sends it that way, with no stamp. Every query answers to it
 * as to its user's stamp; no activity does (the errors page's "without a stamp" message); an
 * expired or unknown session answers as an expired or unknown API key does. The auth proxy's
 * document defines no session: its reads answer with or without the header.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { TurnkeyBrowserClient } from "@turnkey/sdk-browser";
import { coordinator } from "../../contracts/index.js";
import { sampleValue } from "../../contracts/sample.js";
import { advanceClock, newP256KeyPair, rawPost, refusal, sdkClient, storeCounts } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { proxyPost } from "../proxy/support.js";

// The errors page's messages (api-reference/overview/errors.mdx:130,123,134).
const NO_STAMP = "cannot authenticate public API activity request without a stamp (X-Stamp/X-Stamp-Webauthn header)";
const UNKNOWN_KEY = "could not find public key in organization or its parent organization";
const EXPIRED_KEY = "expired api key";

const emu = useTestEmulator();
let session: string;
let orgId: string;
let subOrgId: string;

beforeAll(async () => {
  const r = await sdkClient(emu).createReadOnlySession({});
  session = r.session;
  orgId = r.organizationId;
  expect(Number(r.sessionExpiry)).toBeGreaterThan(Math.floor(emu.runtime.clock.now() / 1000));
  subOrgId = (
    await sdkClient(emu).createSubOrganization({
      subOrganizationName: "read me",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "u", userEmail: "read-me@example.com", apiKeys: [], authenticators: [], oauthProviders: [] }],
      wallet: { walletName: "sub wallet", accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }] },
    })
  ).subOrganizationId;
});

/** @turnkey/sdk-browser's client as an app configures it for a read-only session. */
const browserClient = (readOnlySession: string) => new TurnkeyBrowserClient({ apiBaseUrl: emu.url, organizationId: orgId, readOnlySession });

/** A raw POST with only an X-Session header. */
const withSession = (path: string, body: string, token = session) => rawPost(emu, path, body, { key: null, headers: { "X-Session": token } });

describe("a read-only session reads through X-Session (@turnkey/sdk-browser)", () => {
  it("reads what the stamped user reads, in its organization and its sub-organizations", async () => {
    const browser = browserClient(session);
    const stamped = sdkClient(emu);
    expect(await browser.getWallets({})).toEqual(await stamped.getWallets({}));
    const me = await browser.getWhoami({});
    expect(me).toEqual(await stamped.getWhoami({}));
    expect((await browser.getWallets({ organizationId: subOrgId })).wallets.map((w) => w.walletName)).toEqual(["sub wallet"]);
  });

  it("every query answers the session as it answers the user's stamp", async () => {
    // The answer, without the time it was evaluated at (get_active_policies).
    const same = (r: unknown) => JSON.stringify(r, (k, v) => (k === "evaluatedAtMs" ? undefined : v));
    const differing: string[] = [];
    for (const [path, op] of Object.entries(coordinator).filter(([, o]) => o.kind === "query")) {
      const body = JSON.stringify(sampleValue(op.request, { organizationId: orgId }));
      const viaSession = await withSession(path, body);
      const viaStamp = await rawPost(emu, path, body);
      if (viaSession.status === 401 || same(viaSession) !== same(viaStamp)) differing.push(`${path}: ${viaSession.status} ${JSON.stringify(viaSession.json).slice(0, 160)}`);
    }
    expect(differing).toEqual([]);
  });

  it("no activity: a write with the session alone is refused as a request without a stamp, and nothing is written", async () => {
    const before = storeCounts(emu);
    const err = await refusal(browserClient(session).createWallet({ walletName: "read-only write", accounts: [] }));
    expect(err.code).toBe(16);
    expect(err.message).toContain(NO_STAMP);
    for (const [path, op] of Object.entries(coordinator).filter(([, o]) => o.kind === "submit")) {
      const r = await withSession(path, JSON.stringify(sampleValue(op.request, { organizationId: orgId, timestampMs: String(Date.now()) })));
      expect([r.status, r.json.code, r.json.message], path).toEqual([401, 16, NO_STAMP]);
    }
    expect(storeCounts(emu)).toEqual(before);
  });
});

describe("a session the service cannot use answers as an API key would", () => {
  const listWallets = (organizationId = orgId) => JSON.stringify({ organizationId });

  it("unknown: a made-up string, a read-write session JWT and a tampered session answer as an unknown API key", async () => {
    const unknownKey = await rawPost(emu, "/public/v1/query/list_wallets", listWallets(), { key: newP256KeyPair() });
    expect([unknownKey.status, unknownKey.json.code, unknownKey.json.message]).toEqual([401, 16, UNKNOWN_KEY]);
    const k = newP256KeyPair();
    const readWrite = (await sdkClient(emu).stampLogin({ publicKey: k.publicKey })).session;
    const [h, p] = session.split(".");
    const tampered = `${h}.${p!.slice(0, -2)}AA.${session.split(".")[2]}`;
    for (const token of ["not-a-session", readWrite, tampered]) {
      const before = storeCounts(emu);
      const r = await withSession("/public/v1/query/list_wallets", listWallets(), token);
      expect([r.status, r.json.code, r.json.message]).toEqual([401, 16, UNKNOWN_KEY]);
      expect(r.json.details).toEqual(unknownKey.json.details);
      expect(storeCounts(emu)).toEqual(before);
    }
  });

  it("a sub-organization user's session does not read the parent; the parent's session reads the sub-organization", async () => {
    const key = newP256KeyPair();
    const sub = await sdkClient(emu).createSubOrganization({
      subOrganizationName: "reader",
      rootQuorumThreshold: 1,
      rootUsers: [{ userName: "reader", apiKeys: [{ apiKeyName: "k", publicKey: key.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [] }],
    });
    const subSession = (await sdkClient(emu, key, sub.subOrganizationId).createReadOnlySession({ organizationId: sub.subOrganizationId })).session;
    expect((await withSession("/public/v1/query/list_wallets", listWallets(sub.subOrganizationId), subSession)).status).toBe(200);
    const upward = await withSession("/public/v1/query/list_wallets", listWallets(orgId), subSession);
    const upwardByKey = await rawPost(emu, "/public/v1/query/list_wallets", listWallets(orgId), { key });
    expect([upward.status, upward.json]).toEqual([upwardByKey.status, upwardByKey.json]);
    expect(upward.status).toBe(403);
  });

  it("expired: after its hour, the session answers as an expired API key", async () => {
    const expiring = newP256KeyPair();
    const { userId } = await sdkClient(emu).getWhoami({});
    await sdkClient(emu).createApiKeys({ userId, apiKeys: [{ apiKeyName: "expiring", publicKey: expiring.publicKey, curveType: "API_KEY_CURVE_P256", expirationSeconds: "60" }] });
    await advanceClock(emu, 3600 * 1000 + 1000);
    const expiredKey = await rawPost(emu, "/public/v1/query/list_wallets", listWallets(), { key: expiring });
    expect([expiredKey.status, expiredKey.json.code]).toEqual([401, 16]);
    expect(expiredKey.json.message).toContain(EXPIRED_KEY);
    const before = storeCounts(emu);
    const r = await withSession("/public/v1/query/list_wallets", listWallets());
    expect([r.status, r.json.code]).toEqual([401, 16]);
    expect(r.json.message).toContain(EXPIRED_KEY);
    expect(r.json.message.slice(0, r.json.message.indexOf(EXPIRED_KEY))).toBe(expiredKey.json.message.slice(0, expiredKey.json.message.indexOf(EXPIRED_KEY)));
    expect(r.json.details).toEqual(expiredKey.json.details);
    expect(storeCounts(emu)).toEqual(before);
  });
});

describe("the auth proxy's reads", () => {
  it("its document defines no session: wallet_kit_config and account answer the same with X-Session, which its CORS allows", async () => {
    const headers = { "X-Auth-Proxy-Config-ID": emu.info.authProxyConfigId!, Origin: "https://app.example" };
    const preflight = await fetch(`${emu.proxyUrl}/v1/wallet_kit_config`, {
      method: "OPTIONS",
      headers: { ...headers, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "content-type,x-auth-proxy-config-id,x-session" },
    });
    expect(preflight.status).toBeLessThan(300);
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-session");
    for (const [path, body] of [
      ["/v1/wallet_kit_config", undefined],
      ["/v1/account", JSON.stringify({ filterType: "EMAIL", filterValue: "read-me@example.com" })],
    ] as const) {
      const plain = await proxyPost(emu, path, body, headers);
      const withHeader = await proxyPost(emu, path, body, { ...headers, "X-Session": session });
      expect(plain.status).toBe(200);
      expect([withHeader.status, withHeader.json]).toEqual([plain.status, plain.json]);
    }
  });
});
