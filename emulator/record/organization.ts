/**
 * The organization a replay starts from, as the cassette's first answers describe it: a
 * fixture (emulator/core/fixture.ts) of the recorded organization, with its id, name and
 * root quorum, its users (ids, names, contacts, API key ids and names, passkeys, OAuth
 * providers), its policies, its wallets by id and name with their accounts by path and format,
 * and its private keys by id, name and address formats.
 *
 * What the session itself created is left out (every id an activity's result or an auth-proxy
 * answer holds), and of each listing only the first answer counts (the organization as the
 * session found it: a policy added by someone else mid-session is the live service's state,
 * not the start). Ids are the recorded ones. Secrets cannot be: each API key gets a fresh pair
 * the replay holds, each wallet a fresh mnemonic, each private key a fresh key, so public keys
 * and addresses differ and are mapped (mapping.ts, replay.ts).
 */
import { randomBytes, randomUUID } from "node:crypto";
import { generateMnemonic } from "@scure/bip39";
import { wordlist } from "@scure/bip39/wordlists/english.js";
import type { Fixture, FixtureUser } from "../core/fixture.js";
import { stableId } from "../fixtures/seed.js";
import type { Exchange } from "./cassette.js";
import { isPublicKeyHex, keyPairLike, type KeyPair } from "./keys.js";

export type InitialOrganization = {
  organizationId: string;
  fixture: Fixture;
  /** Recorded public key -> the replay's pair (every API key of the fixture). */
  keys: Map<string, KeyPair>;
  /** Recorded accounts of the fixture's wallets and addresses of its private keys, to map to the replay's. */
  accounts: { walletId: string; path: string; addressFormat: string; address: string; walletAccountId?: string }[];
  privateKeyAddresses: { privateKeyId: string; addressFormat: string; address: string }[];
  notes: string[];
};

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => !!v && typeof v === "object" && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? v.filter(isObj) : []);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[1-8][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
/** A recorded id where the fixture takes it, else a fresh one (then mapped like any other). */
const idOr = (v: unknown): string => (typeof v === "string" && UUID.test(v) ? v : randomUUID());

const API_KEY_TYPES: Record<string, string> = {
  CREDENTIAL_TYPE_API_KEY_P256: "API_KEY_CURVE_P256",
  CREDENTIAL_TYPE_API_KEY_SECP256K1: "API_KEY_CURVE_SECP256K1",
  CREDENTIAL_TYPE_API_KEY_ED25519: "API_KEY_CURVE_ED25519",
};

type RecordedKey = { apiKeyId: string; apiKeyName: string; publicKey: string; curveType: string };
type RecordedUser = { userId: string; userName: string; userEmail?: string; userPhoneNumber?: string; apiKeys: Map<string, RecordedKey>; authenticators: FixtureUser["authenticators"]; oauthProviders: FixtureUser["oauthProviders"] };

/** Every string in a value (ids an answer introduced). */
function stringsIn(v: unknown, out: Set<string>): Set<string> {
  if (typeof v === "string") out.add(v);
  else if (Array.isArray(v)) for (const x of v) stringsIn(x, out);
  else if (isObj(v)) for (const x of Object.values(v)) stringsIn(x, out);
  return out;
}

/** Public keys a request introduces: `publicKey` / `targetPublicKey` values (API keys, session keys, export targets). */
export function publicKeysIn(v: unknown, out: string[] = [], key?: string): string[] {
  if (typeof v === "string" && (key === "publicKey" || key === "targetPublicKey") && isPublicKeyHex(v)) out.push(v);
  else if (Array.isArray(v)) for (const x of v) publicKeysIn(x, out, key);
  else if (isObj(v)) for (const [k, x] of Object.entries(v)) publicKeysIn(x, out, k);
  return out;
}

/** The organization the session ran in: its first whoami's, else the first stamped request's, else the auth proxy's. */
function mainOrganization(exchanges: Exchange[]): string | undefined {
  const body = (x: Exchange) => (isObj(x.response.body) ? x.response.body : {});
  const who = exchanges.find((x) => x.operation === "query whoami" && x.response.status === 200);
  return (
    str(who && body(who).organizationId) ??
    str(exchanges.map((x) => x.request.stamp && isObj(x.request.body) && x.request.body.organizationId).find((v) => typeof v === "string")) ??
    str(exchanges.map((x) => x.operation === "proxy wallet_kit_config" && body(x).organizationId).find((v) => typeof v === "string"))
  );
}

export function initialOrganization(exchanges: Exchange[]): InitialOrganization {
  const orgId = mainOrganization(exchanges);
  if (!orgId) throw new Error("the cassette names no organization: record at least one stamped request (a getWhoami is enough)");
  const notes: string[] = [];

  // Everything the session created: what an activity it submitted, or the auth proxy, answered
  // first (a result also names what was there before: the user a session is for).
  const created = new Set<string>();
  const seen = new Set<string>();
  const submitted = new Set<string>();
  for (const x of exchanges) {
    stringsIn(x.request.body, seen);
    const b = x.response.body;
    if (x.response.status === 200 && isObj(b)) {
      const a = isObj(b.activity) ? b.activity : undefined;
      if (a && x.operation.startsWith("submit ") && str(a.id)) submitted.add(a.id as string);
      const made = x.surface === "proxy" && x.operation !== "proxy wallet_kit_config" ? b : a && submitted.has(str(a.id) ?? "") ? a.result : undefined;
      for (const v of stringsIn(made, new Set())) if (!seen.has(v)) created.add(v);
    }
    stringsIn(b, seen);
  }
  const configId = exchanges.map((x) => x.request.headers["x-auth-proxy-config-id"]).find(Boolean);
  // What seeding the auth proxy makes itself (fixtures/seed.ts): not seeded twice.
  const proxyMade = new Set(configId ? [1, 2, 3].map((i) => stableId(configId, i)) : []);
  const known = (id: string | undefined): id is string => !!id && !created.has(id) && !proxyMade.has(id);

  let orgName: string | undefined;
  let quorum: { threshold: number; userIds: string[] } | undefined;
  const users = new Map<string, RecordedUser>();
  const policies = new Map<string, Fixture["organization"]["policies"][number]>();
  const wallets = new Map<string, { walletId: string; walletName: string; accounts: Map<string, Obj> }>();
  const privateKeys = new Map<string, Obj>();
  const keyOwner = new Map<string, string>();
  let proxySettings: Obj | undefined;
  const listed = new Set<string>();
  /** Only the first answer of a listing counts. */
  const first = (what: string) => (listed.has(what) ? false : (listed.add(what), true));

  const addUser = (u: Obj) => {
    const userId = str(u.userId);
    if (!known(userId)) return;
    const user: RecordedUser = users.get(userId) ?? { userId, userName: str(u.userName) ?? str(u.username) ?? "user", apiKeys: new Map(), authenticators: [], oauthProviders: [] };
    user.userEmail ??= str(u.userEmail);
    user.userPhoneNumber ??= str(u.userPhoneNumber);
    for (const k of arr(u.apiKeys)) addKey(userId, k, user);
    if (!user.authenticators.length) {
      for (const a of arr(u.authenticators)) {
        const credentialId = str(a.credentialId);
        const publicKey = str(isObj(a.credential) ? a.credential.publicKey : undefined);
        if (credentialId && publicKey) user.authenticators.push({ authenticatorId: idOr(a.authenticatorId), authenticatorName: str(a.authenticatorName) ?? "passkey", credentialId, publicKey, transports: [] });
      }
    }
    if (!user.oauthProviders.length) {
      for (const p of arr(u.oauthProviders)) {
        const [issuer, subject, audience] = [str(p.issuer), str(p.subject), str(p.audience)];
        if (issuer && subject && audience) user.oauthProviders.push({ oauthProviderId: idOr(p.providerId), providerName: str(p.providerName) ?? "oauth", issuer, subject, audience });
      }
    }
    users.set(userId, user);
  };
  const addKey = (userId: string, k: Obj, user = users.get(userId)) => {
    const apiKeyId = str(k.apiKeyId);
    const credential = isObj(k.credential) ? k.credential : {};
    const publicKey = str(credential.publicKey);
    const curveType = API_KEY_TYPES[str(credential.type) ?? ""];
    if (!user || !known(apiKeyId) || !publicKey || !curveType) return; // session keys are the session's, not the organization's
    keyOwner.set(publicKey, userId);
    if (!user.apiKeys.has(apiKeyId)) user.apiKeys.set(apiKeyId, { apiKeyId, apiKeyName: str(k.apiKeyName) ?? "key", publicKey, curveType });
  };
  const addPolicy = (p: Obj) => {
    const policyId = str(p.policyId);
    if (!known(policyId) || policies.has(policyId)) return;
    const effect = p.effect === "EFFECT_DENY" ? "EFFECT_DENY" : "EFFECT_ALLOW";
    policies.set(policyId, { policyId, policyName: str(p.policyName) ?? policyId, effect, condition: str(p.condition), consensus: str(p.consensus), notes: typeof p.notes === "string" ? p.notes : "" });
  };
  const addWallet = (w: Obj) => {
    const walletId = str(w.walletId);
    if (known(walletId) && !wallets.has(walletId)) wallets.set(walletId, { walletId, walletName: str(w.walletName) ?? walletId, accounts: new Map() });
  };
  const addAccount = (a: Obj) => {
    const w = wallets.get(str(a.walletId) ?? "");
    const address = str(a.address);
    if (!w || !address || created.has(address) || a.pathFormat !== "PATH_FORMAT_BIP32") return;
    w.accounts.set(`${str(a.path)}|${str(a.addressFormat)}`, a);
  };
  const addPrivateKey = (k: Obj) => {
    const id = str(k.privateKeyId);
    if (known(id) && !privateKeys.has(id)) privateKeys.set(id, k);
  };

  for (const x of exchanges) {
    const req = isObj(x.request.body) ? x.request.body : {};
    const b = isObj(x.response.body) ? x.response.body : undefined;
    if (x.operation === "proxy wallet_kit_config" && b && x.response.status === 200) proxySettings ??= b;
    if (!b || x.response.status !== 200 || x.surface !== "coordinator" || req.organizationId !== orgId) continue;
    // An activity's votes carry their users as they are (contacts, API keys): the organization's, unless the session made them.
    for (const a of [b.activity, ...(Array.isArray(b.activities) ? b.activities : [])]) if (isObj(a)) for (const v of arr(a.votes)) if (isObj(v.user)) addUser(v.user);
    switch (x.operation) {
      case "query whoami":
        orgName ??= str(b.organizationName);
        if (str(b.userId)) addUser({ userId: b.userId, userName: b.username });
        if (x.request.stamp?.publicKey && str(b.userId)) keyOwner.set(x.request.stamp.publicKey, b.userId as string);
        break;
      case "query get_organization": {
        const d = isObj(b.organizationData) ? b.organizationData : {};
        orgName ??= str(d.name);
        if (!first("organization")) break;
        if (isObj(d.rootQuorum)) quorum ??= { threshold: Number(d.rootQuorum.threshold) || 1, userIds: (d.rootQuorum.userIds as string[]) ?? [] };
        arr(d.users).forEach(addUser);
        arr(d.policies).forEach(addPolicy);
        arr(d.wallets).forEach(addWallet);
        arr(d.privateKeys).forEach(addPrivateKey);
        break;
      }
      case "query get_organization_configs": {
        const q = isObj(b.configs) && isObj(b.configs.quorum) ? b.configs.quorum : undefined;
        if (q) quorum ??= { threshold: Number(q.threshold) || 1, userIds: (q.userIds as string[]) ?? [] };
        break;
      }
      case "query list_users":
        if (first("users")) arr(b.users).forEach(addUser);
        break;
      case "query get_user":
        if (isObj(b.user)) addUser(b.user);
        break;
      case "query get_api_keys":
        if (first(`api_keys ${str(req.userId)}`) && str(req.userId)) for (const k of arr(b.apiKeys)) addKey(req.userId as string, k);
        break;
      case "query list_policies":
        if (first("policies")) arr(b.policies).forEach(addPolicy);
        break;
      case "query get_policy":
        if (isObj(b.policy)) addPolicy(b.policy);
        break;
      case "query list_wallets":
        if (first("wallets")) arr(b.wallets).forEach(addWallet);
        break;
      case "query get_wallet":
        if (isObj(b.wallet)) addWallet(b.wallet);
        break;
      case "query list_wallet_accounts":
        if (first(`accounts ${str(req.walletId)}`)) arr(b.accounts).forEach(addAccount);
        break;
      case "query get_wallet_account":
        if (isObj(b.account)) addAccount(b.account);
        break;
      case "query list_private_keys":
        if (first("private keys")) arr(b.privateKeys).forEach(addPrivateKey);
        break;
      case "query get_private_key":
        if (isObj(b.privateKey)) addPrivateKey(b.privateKey);
        break;
    }
  }

  const rootIds = new Set(quorum?.userIds ?? []);
  if (!users.size) {
    notes.push("no answer describes the organization's users: the replay gives it one root user");
    const userId = randomUUID();
    users.set(userId, { userId, userName: "Recorded root user", apiKeys: new Map(), authenticators: [], oauthProviders: [] });
  }
  if (!quorum) {
    const firstUser = [...users.values()][0]!;
    const stamped = exchanges.map((x) => x.request.stamp?.publicKey).find((k) => k && keyOwner.has(k));
    rootIds.add(stamped ? keyOwner.get(stamped)! : firstUser.userId);
    notes.push("no answer gives the root quorum: the replay makes the session's first user its only root user (threshold 1); record a getOrganizationConfigs to replay it exactly");
  }
  const firstRoot = [...users.values()].find((u) => rootIds.has(u.userId)) ?? [...users.values()][0]!;

  // A key that stamps before any request introduced it is an organization key: its user's, else the first root user's.
  const introduced = new Set<string>();
  for (const x of exchanges) {
    for (const k of publicKeysIn(x.request.body)) introduced.add(k);
    const p = x.request.stamp?.publicKey;
    if (!p || introduced.has(p) || [...users.values()].some((u) => [...u.apiKeys.values()].some((k) => k.publicKey === p))) continue;
    const owner = users.get(keyOwner.get(p) ?? "");
    if (keyOwner.has(p) && !owner) {
      notes.push(`exchange ${x.seq}: stamped by a key of a user outside the recorded organization; not replayed as that user`);
      continue;
    }
    const user = owner ?? firstRoot;
    if (!owner) notes.push(`exchange ${x.seq}: stamped by a key no answer names: the replay gives it to the first root user`);
    const apiKeyId = randomUUID();
    user.apiKeys.set(apiKeyId, { apiKeyId, apiKeyName: `recorded key ${user.apiKeys.size + 1}`, publicKey: p, curveType: "API_KEY_CURVE_P256" });
  }

  const keys = new Map<string, KeyPair>();
  const accounts: InitialOrganization["accounts"] = [];
  const privateKeyAddresses: InitialOrganization["privateKeyAddresses"] = [];
  const fixtureUsers: FixtureUser[] = [...users.values()].map((u) => ({
    userId: u.userId,
    userName: u.userName,
    ...(u.userEmail ? { userEmail: u.userEmail } : {}),
    ...(u.userPhoneNumber ? { userPhoneNumber: u.userPhoneNumber } : {}),
    root: rootIds.has(u.userId),
    apiKeys: [...u.apiKeys.values()].map((k) => {
      if (k.curveType !== "API_KEY_CURVE_P256") notes.push(`an API key is ${k.curveType}: requests it stamps are not replayed (the replay stamps with P-256)`);
      const pair = keyPairLike(k.publicKey, k.curveType);
      keys.set(k.publicKey, pair);
      return { apiKeyId: idOr(k.apiKeyId), apiKeyName: k.apiKeyName, curveType: k.curveType as "API_KEY_CURVE_P256", publicKey: pair.publicKey, ...(pair.curve === "ed25519" ? {} : { privateKey: pair.privateKey }) };
    }),
    authenticators: u.authenticators,
    oauthProviders: u.oauthProviders,
    userTags: [],
  }));
  const fixture: Fixture = {
    organization: {
      organizationId: orgId,
      organizationName: orgName ?? "Recorded organization",
      rootQuorumThreshold: Math.min(quorum?.threshold ?? 1, Math.max(1, fixtureUsers.filter((u) => u.root).length)),
      users: fixtureUsers,
      userTags: [],
      privateKeyTags: [],
      wallets: [...wallets.values()].map((w) => ({
        walletId: w.walletId,
        walletName: w.walletName,
        mnemonic: generateMnemonic(wordlist, 128),
        accounts: [...w.accounts.values()].map((a) => {
          accounts.push({ walletId: w.walletId, path: String(a.path), addressFormat: String(a.addressFormat), address: String(a.address), walletAccountId: str(a.walletAccountId) });
          return { curve: a.curve as "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32" as const, path: String(a.path), addressFormat: String(a.addressFormat) };
        }),
      })),
      privateKeys: [...privateKeys.values()].map((k) => {
        const privateKeyId = str(k.privateKeyId)!;
        const addresses = arr(k.addresses);
        for (const a of addresses) if (str(a.format) && str(a.address)) privateKeyAddresses.push({ privateKeyId, addressFormat: a.format as string, address: a.address as string });
        return { privateKeyId, privateKeyName: str(k.privateKeyName) ?? privateKeyId, curve: k.curve as "CURVE_SECP256K1", privateKey: randomBytes(32).toString("hex"), addressFormats: addresses.map((a) => String(a.format)), privateKeyTags: [] };
      }),
      policies: [...policies.values()],
      subOrganizations: [],
      ...(configId ? { authProxy: authProxyOf(configId, proxySettings, exchanges) } : {}),
    },
    organizations: [],
  };
  return { organizationId: orgId, fixture, keys, accounts, privateKeyAddresses, notes };
}

/** The auth proxy's configuration: as the recorded wallet_kit_config answer gives it, else what the OTP codes' length shows. */
function authProxyOf(configId: string, s: Obj | undefined, exchanges: Exchange[]): NonNullable<Fixture["organization"]["authProxy"]> {
  const otp = exchanges
    .map((x) => JSON.stringify(x.request.body ?? null).match(/<redacted otpCode len=(\d+) /))
    .find(Boolean);
  const otpLength = Number(s?.otpLength) || (otp ? Number(otp[1]) : 6);
  const providers = Array.isArray(s?.enabledProviders) ? (s.enabledProviders as string[]) : ["email", "sms", "passkey", "wallet"];
  return {
    configId,
    allowedOrigins: ["*"],
    enabledProviders: providers,
    sessionExpirationSeconds: Number(s?.sessionExpirationSeconds) || 900,
    otpLength: Math.min(9, Math.max(6, otpLength)),
    otpAlphanumeric: typeof s?.otpAlphanumeric === "boolean" ? s.otpAlphanumeric : otpLength !== 6,
    ...(isObj(s?.oauthClientIds) ? { oauthClientIds: s.oauthClientIds as Record<string, string> } : {}),
  };
}
