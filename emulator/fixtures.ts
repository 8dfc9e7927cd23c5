/**
 * Seed states: a fixture file describes one organization with its users and keys.
 * Seeding writes it into an empty store; `reset` clears the store and seeds it again.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { Store } from "./store/index.js";
import { API_KEY_CREDENTIAL_TYPE, insertApiKey } from "./domain/api-keys.js";
import { insertUser } from "./domain/users.js";
import { packageRoot } from "./package-root.js";
import { createHash } from "node:crypto";
import type { Keyring } from "./keyring.js";
import { assertValidMnemonic } from "./chains/index.js";
import { withField } from "./errors.js";
import { deriveAccount } from "./wallets/accounts.js";
import { enableAuthProxy } from "./proxy/provision.js";
import { mergeSettings, settingsFromProviders } from "./proxy/settings.js";

const fixtureApiKey = z.object({
  apiKeyId: z.uuid(),
  apiKeyName: z.string().min(1),
  curveType: z.enum(["API_KEY_CURVE_P256", "API_KEY_CURVE_SECP256K1", "API_KEY_CURVE_ED25519"]),
  publicKey: z.string().regex(/^[0-9a-f]+$/),
  /** Published with the fixture so that developers can stamp requests with it. */
  privateKey: z.string().regex(/^[0-9a-f]{64}$/).optional(),
});

const fixtureUser = z.object({
  userId: z.uuid(),
  userName: z.string().min(1),
  userEmail: z.string().optional(),
  userPhoneNumber: z.string().optional(),
  root: z.boolean().default(false),
  apiKeys: z.array(fixtureApiKey).default([]),
});

const fixtureAccount = z.object({
  curve: z.enum(["CURVE_SECP256K1", "CURVE_ED25519", "CURVE_P256"]),
  pathFormat: z.literal("PATH_FORMAT_BIP32"),
  path: z.string(),
  addressFormat: z.string(),
  name: z.string().optional(),
});

const fixtureWallet = z.object({
  walletId: z.uuid(),
  walletName: z.string().min(1),
  /** Published with the fixture: fixture wallets are for development only. */
  mnemonic: z.string().min(1),
  accounts: z.array(fixtureAccount).default([]),
});

/** An enabled auth proxy for the organization (its proxy user, key and policy are created on seeding). */
const fixtureAuthProxy = z.object({
  configId: z.uuid(),
  allowedOrigins: z.array(z.string()).default(["*"]),
  /** Wallet-kit providers: social ones (google, apple, facebook, x, discord) and auth methods (email, sms, passkey, wallet). */
  enabledProviders: z.array(z.string()).default(["email", "sms", "passkey", "wallet"]),
  sessionExpirationSeconds: z.number().int().min(1).default(900),
  otpLength: z.number().int().min(6).max(9).default(9),
  otpAlphanumeric: z.boolean().default(true),
  otpExpirationSeconds: z.number().int().min(1).max(600).optional(),
  verificationTokenExpirationSeconds: z.number().int().min(1).max(86400).optional(),
  appName: z.string().min(1).optional(),
  oauthClientIds: z.record(z.string(), z.string()).optional(),
  oauthRedirectUrl: z.string().optional(),
});

export const fixtureSchema = z.object({
  $comment: z.string().optional(),
  organization: z.object({
    organizationId: z.uuid(),
    organizationName: z.string().min(1),
    rootQuorumThreshold: z.number().int().min(1).default(1),
    users: z.array(fixtureUser).min(1),
    wallets: z.array(fixtureWallet).default([]),
    authProxy: fixtureAuthProxy.optional(),
  }),
});

export type Fixture = z.infer<typeof fixtureSchema>;

export const DEFAULT_FIXTURE_PATH = join(packageRoot(), "fixtures", "default.json");

export function loadFixture(path = DEFAULT_FIXTURE_PATH): Fixture {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    throw new Error(`cannot read fixture ${path}: ${(e as Error).message}`, { cause: e });
  }
  const r = fixtureSchema.safeParse(json);
  if (!r.success) {
    const i = r.error.issues[0]!;
    throw new Error(`invalid fixture ${path}: ${i.path.join(".")}: ${i.message}`);
  }
  const roots = r.data.organization.users.filter((u) => u.root);
  if (r.data.organization.rootQuorumThreshold > roots.length) {
    throw new Error(`invalid fixture ${path}: rootQuorumThreshold exceeds the number of root users`);
  }
  return r.data;
}

/** Writes the fixture into the store (which must not already hold it). */
export function seedFixture(store: Store, keyring: Keyring, f: Fixture, now: number): void {
  const o = f.organization;
  store.tx(() => {
    store.organizations.insert({
      id: o.organizationId,
      name: o.organizationName,
      parentId: null,
      rootQuorumThreshold: o.rootQuorumThreshold,
      rootUserIds: o.users.filter((u) => u.root).map((u) => u.userId),
      features: [],
      createdAt: now,
      updatedAt: now,
    });
    for (const u of o.users) {
      // A fixture's contacts are its author's own: seeded as verified.
      const contacts = { email: u.userEmail, phone: u.userPhoneNumber, emailVerified: !!u.userEmail, phoneVerified: !!u.userPhoneNumber };
      insertUser(store, { id: u.userId, orgId: o.organizationId, name: u.userName, ...contacts }, now);
      for (const k of u.apiKeys) {
        const key = { id: k.apiKeyId, orgId: o.organizationId, userId: u.userId, name: k.apiKeyName, publicKey: k.publicKey, credentialType: API_KEY_CREDENTIAL_TYPE[k.curveType]! };
        insertApiKey(store, key, now);
      }
    }
    for (const w of o.wallets) {
      withField(`wallets.${w.walletId}`, () => assertValidMnemonic(w.mnemonic));
      store.wallets.insert({ id: w.walletId, orgId: o.organizationId, name: w.walletName, mnemonicSealed: keyring.sealMnemonic(w.mnemonic), exported: false, imported: false, createdAt: now, updatedAt: now });
      const seed = keyring.seedOf(store.wallets.get(o.organizationId, w.walletId)!);
      w.accounts.forEach((a, i) => {
        const d = withField(`wallets.${w.walletId}.accounts[${i}]`, () => deriveAccount(seed, a));
        store.wallets.insertAccount({ id: fixtureAccountId(w.walletId, i), orgId: o.organizationId, walletId: w.walletId, ...d, exported: false, createdAt: now, updatedAt: now });
      });
    }
    if (o.authProxy) seedAuthProxy(store, o.organizationId, o.authProxy, now);
  });
}

function seedAuthProxy(store: Store, orgId: string, a: z.infer<typeof fixtureAuthProxy>, now: number): void {
  const settings = mergeSettings(
    {},
    {
      allowedOrigins: a.allowedOrigins,
      ...settingsFromProviders(a.enabledProviders),
      sessionExpirationSeconds: a.sessionExpirationSeconds,
      otpLength: a.otpLength,
      otpAlphanumeric: a.otpAlphanumeric,
      otpExpirationSeconds: a.otpExpirationSeconds,
      verificationTokenExpirationSeconds: a.verificationTokenExpirationSeconds,
      emailCustomizationParams: a.appName ? { appName: a.appName } : undefined,
    },
    "organization.authProxy",
  );
  settings.walletKitSettings = { ...settings.walletKitSettings, oauthClientIds: a.oauthClientIds, oauthRedirectUrl: a.oauthRedirectUrl };
  // Stable ids across resets, like the fixture's own.
  enableAuthProxy(store, orgId, now, settings, { configId: a.configId, proxyUserId: fixtureAccountId(a.configId, 1), proxyApiKeyId: fixtureAccountId(a.configId, 2), policyId: fixtureAccountId(a.configId, 3) });
}

/** Fixture account ids are stable across resets: a name-based UUID of wallet id and index. */
function fixtureAccountId(walletId: string, index: number): string {
  const h = createHash("sha256").update(`${walletId}/${index}`).digest("hex");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16]!, 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** What `/emulator/v1/info` and the CLI banner tell about the seeded organization. */
export function fixtureInfo(f: Fixture) {
  const root = f.organization.users.find((u) => u.root) ?? f.organization.users[0]!;
  const key = root.apiKeys.find((k) => k.privateKey) ?? root.apiKeys[0];
  return {
    organizationId: f.organization.organizationId,
    organizationName: f.organization.organizationName,
    rootUserId: root.userId,
    apiPublicKey: key?.publicKey ?? null,
    apiPrivateKey: key?.privateKey ?? null,
    walletId: f.organization.wallets[0]?.walletId ?? null,
    authProxyConfigId: f.organization.authProxy?.configId ?? null,
  };
}
