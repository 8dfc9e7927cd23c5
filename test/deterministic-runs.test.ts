/**
 * `emulator start --seed TEXT --clock TIME`: the same requests in the same order get byte-identical
 * answers, run after run. Two CLI instances started with the same seed and clock are sent the same
 * sequence through @turnkey/sdk-server (wallet accounts in four address formats, private keys on
 * three curves, users, a sub-organization, OTP, export, import and credential bundles, signatures,
 * an auth-proxy call, the activity list) and every answer's bytes are compared; another seed gives
 * other ids; two runs without a seed differ.
 *
 * The requests must be identical too: the SDK stamps with @turnkey/api-key-stamper's pure-JS
 * signer (`runtimeOverride: "purejs"`: noble's RFC 6979 ECDSA, where WebCrypto's is randomized)
 * and takes `timestampMs` from Date, which this file fixes at the emulator's clock (Date only;
 * timers run). Client keys are constants.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { ChildProcess } from "node:child_process";
import { Turnkey } from "@turnkey/sdk-server";
import { p256 } from "@noble/curves/nist.js";
import { bytesToHex, hexToBytes } from "@noble/hashes/utils.js";
import { startCliEmulator, startTestEmulator } from "./support.js";

const CLOCK = "2030-01-01T00:00:00.000Z";
const ORG = "0d59bf5a-3228-47d7-8128-1e1c1da98a34"; // the default fixture's: ids a fixture gives stay as they are
const CONFIG_ID = "5f3c2b9e-8d1a-4e6f-9b7c-2a4d6e8f0a13";

/** Constant client keys: the requests' bytes must not depend on the run. */
const keyOf = (seedHex: string) => ({ privateKey: seedHex, publicKey: bytesToHex(p256.getPublicKey(hexToBytes(seedHex), true)), uncompressed: bytesToHex(p256.getPublicKey(hexToBytes(seedHex), false)) });
const DEV = { publicKey: "03a072d6592918a8c56a057682964c025d5779ea8e0af8c38d8e1eb0da71d7f5f1", privateKey: "552dd4358d7dce3158271c42acc4a2b1546c4db68c8a24b5c8a291528463dfb7" };
const USER_KEY = keyOf("11".repeat(32));
const TARGET = keyOf("22".repeat(32));
const EMAIL = "seeded@example.com";

type Transcript = { label: string; status: number; body: string }[];

/**
 * The sequence, against the emulator at `url`; every answer's status and body bytes, in order. The
 * SDK's requests go through `fetch`, which is wrapped for the run to keep each response's text.
 */
async function runSequence(url: string): Promise<Transcript> {
  const transcript: Transcript = [];
  const realFetch = globalThis.fetch;
  let label = "";
  globalThis.fetch = async (input, init) => {
    const res = await realFetch(input, init);
    transcript.push({ label: `${label} ${new URL(typeof input === "string" || input instanceof URL ? input : input.url).pathname}`, status: res.status, body: await res.clone().text() });
    return res;
  };
  const step = async <T>(name: string, f: () => Promise<T>): Promise<T> => {
    label = name;
    return f();
  };
  const client = (organizationId = ORG, key = DEV) =>
    new Turnkey({ apiBaseUrl: url, defaultOrganizationId: organizationId, apiPublicKey: key.publicKey, apiPrivateKey: key.privateKey, runtimeOverride: "purejs", activityPoller: { intervalMs: 20, numRetries: 2 } }).apiClient();
  const c = client();
  try {
    const wallet = await step("wallet in four address formats", () =>
      c.createWallet({
        walletName: "seeded wallet",
        accounts: [
          { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" },
          { curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/501'/0'/0'", addressFormat: "ADDRESS_FORMAT_SOLANA" },
          { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/84'/0'/0'/0/0", addressFormat: "ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH" },
          { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/195'/0'/0/0", addressFormat: "ADDRESS_FORMAT_TRON" },
        ],
      }),
    );
    const keys = await step("private keys on three curves", () =>
      c.createPrivateKeys({
        privateKeys: [
          { privateKeyName: "k1", curve: "CURVE_SECP256K1", addressFormats: ["ADDRESS_FORMAT_ETHEREUM"], privateKeyTags: [] },
          { privateKeyName: "ed", curve: "CURVE_ED25519", addressFormats: ["ADDRESS_FORMAT_SOLANA"], privateKeyTags: [] },
          { privateKeyName: "p256", curve: "CURVE_P256", addressFormats: [], privateKeyTags: [] },
        ],
      }),
    );
    await step("users", () => c.createUsers({ users: [{ userName: "seeded user", userEmail: "user@example.com", apiKeys: [{ apiKeyName: "k", publicKey: USER_KEY.publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] }));
    const { subOrganizationId } = await step("sub-organization", () =>
      c.createSubOrganization({
        subOrganizationName: "seeded sub-org",
        rootQuorumThreshold: 1,
        rootUsers: [{ userName: "end user", userEmail: EMAIL, apiKeys: [], authenticators: [], oauthProviders: [] }],
        wallet: { walletName: "end user wallet", accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }] },
      }),
    );
    // OTP: the code goes to the emulator's mailbox, and is traded for a credential bundle sealed to TARGET.
    const { otpId } = await step("init OTP", () => c.initOtpAuth({ otpType: "OTP_TYPE_EMAIL", contact: EMAIL, organizationId: subOrganizationId, appName: "Seeded App" } as never));
    const mail = await step("mailbox", async () => (await (await fetch(`${url}/emulator/v1/mailbox?contact=${encodeURIComponent(EMAIL)}`)).json()) as { otpCode: string }[]);
    await step("OTP auth", () => c.otpAuth({ organizationId: subOrganizationId, otpId, otpCode: mail.at(-1)!.otpCode, targetPublicKey: TARGET.uncompressed } as never));
    await step("export bundle", () => c.exportWallet({ walletId: wallet.walletId, targetPublicKey: TARGET.uncompressed }));
    await step("import bundle", () => c.initImportPrivateKey({ userId: "ae9477b3-2f4c-4ecd-88ee-4b1f358feeba" }));
    await step("credential bundle", () => c.createReadWriteSession({ targetPublicKey: TARGET.uncompressed, expirationSeconds: "900" } as never));
    const [eth, sol] = wallet.addresses;
    await step("sign secp256k1", () => c.signRawPayload({ signWith: eth!, payload: "0x68656c6c6f", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" }));
    await step("sign ed25519", () => c.signRawPayload({ signWith: sol!, payload: "68656c6c6f", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_NOT_APPLICABLE" }));
    await step("sign p256", () => c.signRawPayload({ signWith: keys.privateKeys[2]!.privateKeyId!, payload: "68656c6c6f", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_SHA256" }));
    await step("auth proxy OTP", () => fetch(`${url}/v1/otp_init`, { method: "POST", headers: { "content-type": "application/json", "X-Auth-Proxy-Config-ID": CONFIG_ID }, body: JSON.stringify({ otpType: "OTP_TYPE_EMAIL", contact: "proxy@example.com" }) }));
    await step("activities", () => c.getActivities({ paginationOptions: { limit: "100" } }));
    await step("sub-organization's wallets", () => client(subOrganizationId).getWallets({ organizationId: subOrganizationId }));
  } finally {
    globalThis.fetch = realFetch;
  }
  return transcript;
}

/** Runs the sequence with Date fixed at the seeded instances' clock, so that the SDK stamps the same timestampMs. */
async function atClock<T>(f: () => Promise<T>): Promise<T> {
  vi.useFakeTimers({ toFake: ["Date"], now: new Date(CLOCK) });
  try {
    return await f();
  } finally {
    vi.useRealTimers();
  }
}

const children: ChildProcess[] = [];
let urls: string[] = [];

beforeAll(async () => {
  const started = await Promise.all([1, 2].map(() => startCliEmulator(["--port", "0", "--seed", "alpha", "--clock", CLOCK], 60_000)));
  children.push(...started.map((s) => s.child));
  urls = started.map((s) => s.url);
}, 90_000);

afterAll(() => {
  for (const c of children) c.kill("SIGTERM");
});

/** Every UUID in a transcript, in order. */
const idsOf = (t: Transcript) => t.flatMap((e) => e.body.match(/[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/g) ?? []);

describe("deterministic runs", () => {
  let first: Transcript;

  it("two CLI instances with the same --seed and --clock answer the same sequence byte for byte", async () => {
    first = await atClock(() => runSequence(urls[0]!));
    const second = await atClock(() => runSequence(urls[1]!));
    if (process.env.SHOW) for (const e of first) console.log(e.label, e.status, e.body.slice(0, 400));
    expect(first).toHaveLength(16);
    // Every step answered as a success: a refused request would make the comparison prove little.
    expect(first.filter((e) => e.status !== 200).map((e) => `${e.label}: ${e.status} ${e.body}`)).toEqual([]);
    expect(second.map((e) => e.label)).toEqual(first.map((e) => e.label));
    for (const [i, e] of first.entries()) expect(second[i]!.body, e.label).toBe(e.body);
    // What the seed decides is in there: new ids, a mnemonic-derived address, bundles, an OTP code.
    const text = first.map((e) => e.body).join("\n");
    expect(idsOf(first).length).toBeGreaterThan(30);
    expect(text).toMatch(/"exportBundle"/);
    expect(text).toMatch(/"importBundle"/);
    expect(text).toMatch(/"credentialBundle"/);
    expect(text).toMatch(/"otpCode":"\d{6,9}"|"otpCode":"[0-9A-Z]{6,9}"/);
    expect(text).toContain(`"createdAt":{"seconds":"${Date.parse(CLOCK) / 1000}"`);
  }, 120_000);

  it("another seed gives other ids, and runs without a seed differ from each other", async () => {
    const [beta, plainA, plainB] = await Promise.all([startTestEmulator({ seed: "beta", clock: CLOCK }), startTestEmulator({ clock: CLOCK }), startTestEmulator({ clock: CLOCK })]);
    try {
      const other = await atClock(() => runSequence(beta.url));
      const fixtureIds = new Set(idsOf(first).filter((id) => idsOf(other).includes(id)));
      // Ids the fixture gives (organization, users, keys, the proxy configuration) are the same; every new one differs.
      const newIds = (t: Transcript) => idsOf(t).filter((id) => !fixtureIds.has(id));
      expect(newIds(first).length).toBeGreaterThan(20);
      expect(newIds(other).length).toBe(newIds(first).length);
      expect(new Set(newIds(other)).size).toBeGreaterThan(10);
      expect(fixtureIds).toContain(ORG);
      const [a, b] = [await atClock(() => runSequence(plainA.url)), await atClock(() => runSequence(plainB.url))];
      expect(a.map((e) => e.label)).toEqual(b.map((e) => e.label));
      const differing = a.filter((e, i) => e.body !== b[i]!.body).map((e) => e.label);
      expect(differing.length).toBeGreaterThan(a.length / 2);
      expect(differing).toEqual(expect.arrayContaining([expect.stringMatching(/^wallet/), expect.stringMatching(/^export bundle/), expect.stringMatching(/^mailbox/)]));
    } finally {
      await Promise.all([beta.stop(), plainA.stop(), plainB.stop()]);
    }
  }, 120_000);
});
