import { describe, expect, it } from "vitest";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Store } from "./index.js";
import { openStore } from "../../families.js";
import { BASELINE_MIGRATIONS } from "./schema.js";
import { isTurnkeyError } from "../errors.js";
import { createSealer } from "./seal.js";
import { randomBytes } from "node:crypto";

const ORG = "00000000-0000-4000-8000-000000000001";
const OTHER = "00000000-0000-4000-8000-000000000002";

function storeWithOrgs(): Store {
  const store = openStore();
  for (const id of [ORG, OTHER]) store.organizations.insert({ id, name: id, parentId: null, rootQuorumThreshold: 1, rootUserIds: [], features: [], createdAt: 0, updatedAt: 0 });
  store.users.insert({ id: "u1", orgId: ORG, name: "u", email: null, phone: null, emailVerified: false, phoneVerified: false, createdAt: 0, updatedAt: 0 });
  store.users.insert({ id: "u2", orgId: OTHER, name: "u", email: null, phone: null, emailVerified: false, phoneVerified: false, createdAt: 0, updatedAt: 0 });
  return store;
}

const wallet = (id: string, orgId: string, name: string) => ({ id, orgId, name, mnemonicSealed: "x", exported: false, imported: false, createdAt: 0, updatedAt: 0 });
const privateKey = (id: string, orgId: string, name: string) => ({
  id, orgId, name, curve: "CURVE_SECP256K1", privateKeySealed: "x", publicKey: "04", addresses: [], exported: false, imported: false, createdAt: 0, updatedAt: 0,
});
const authenticator = (id: string, orgId: string, userId: string, credentialId: string) => ({
  id, orgId, userId, name: "a", credentialId, publicKey: "pk", aaguid: "0", attestationType: "none", transports: [], createdAt: 0, updatedAt: 0,
});

/** The TurnkeyError a write was refused with (fails the test if the write went through or threw anything else). */
function refusal(write: () => unknown): { code: number; message: string; field: unknown } {
  try {
    write();
  } catch (e) {
    if (!isTurnkeyError(e)) throw e;
    const bad = e.details.find((d) => d["@type"].endsWith("BadRequest")) as { fieldViolations?: { field: string }[] } | undefined;
    return { code: e.code, message: e.message, field: bad?.fieldViolations?.[0]?.field };
  }
  throw new Error("expected the write to be refused");
}

describe("unique indexes answered by the repositories", () => {
  it("wallet labels: per organization, on insert and on rename", () => {
    const store = storeWithOrgs();
    store.wallets.insert(wallet("w1", ORG, "main"));
    store.wallets.insert(wallet("w2", OTHER, "main"));
    store.wallets.insert(wallet("w3", ORG, "spare"));
    expect(refusal(() => store.wallets.insert(wallet("w4", ORG, "main")))).toMatchObject({ code: 3, message: expect.stringMatching(/^wallet label must be unique/), field: "parameters.walletName" });
    expect(refusal(() => store.wallets.update("w3", { name: "main" }, 1)).message).toMatch(/wallet label must be unique/);
    store.wallets.update("w1", { name: "main" }, 1);
    store.wallets.delete("w1");
    store.wallets.insert(wallet("w5", ORG, "main"));
    expect(store.wallets.list(ORG).map((w) => w.name).sort()).toEqual(["main", "spare"]);
  });

  it("private key names, policy labels, tag names per kind, authenticator credentials and API keys per user", () => {
    const store = storeWithOrgs();
    store.privateKeys.insert(privateKey("k1", ORG, "signer"));
    expect(refusal(() => store.privateKeys.insert(privateKey("k2", ORG, "signer"))).message).toBe("private key name already in use: signer");
    store.privateKeys.insert(privateKey("k3", OTHER, "signer"));

    const policy = { orgId: ORG, name: "p", effect: "EFFECT_ALLOW", condition: null, consensus: null, time: null, notes: "", createdAt: 0, updatedAt: 0 };
    store.policies.insert({ ...policy, id: "p1" });
    store.policies.insert({ ...policy, id: "p2", name: "q" });
    expect(refusal(() => store.policies.insert({ ...policy, id: "p3" })).message).toBe("policy label must be unique");
    expect(refusal(() => store.policies.update({ ...policy, id: "p2" })).message).toBe("policy label must be unique");

    store.tags.insert({ id: "t1", orgId: ORG, name: "ops", tagType: "TAG_TYPE_USER", createdAt: 0, updatedAt: 0 });
    store.tags.insert({ id: "t2", orgId: ORG, name: "ops", tagType: "TAG_TYPE_PRIVATE_KEY", createdAt: 0, updatedAt: 0 });
    store.tags.insert({ id: "t3", orgId: ORG, name: "dev", tagType: "TAG_TYPE_USER", createdAt: 0, updatedAt: 0 });
    expect(refusal(() => store.tags.insert({ id: "t4", orgId: ORG, name: "ops", tagType: "TAG_TYPE_USER", createdAt: 0, updatedAt: 0 })).message).toBe("user tag name already in use: ops");
    expect(refusal(() => store.tags.rename("t3", "ops", 1))).toMatchObject({ message: "user tag name already in use: ops", field: "parameters.userTagName" });

    store.authenticators.insert(authenticator("a1", ORG, "u1", "cred"));
    store.authenticators.insert(authenticator("a2", OTHER, "u2", "cred"));
    expect(refusal(() => store.authenticators.insert(authenticator("a3", ORG, "u1", "cred"))).message).toBe("an authenticator with credential ID cred already exists");

    const apiKey = { orgId: ORG, userId: "u1", name: "k", publicKey: "02aa", credentialType: "CREDENTIAL_TYPE_API_KEY_P256", expirationSeconds: null, expiresAt: null, sessionProfileId: null, createdAt: 0, updatedAt: 0 };
    store.apiKeys.insert({ ...apiKey, id: "ak1" });
    expect(refusal(() => store.apiKeys.insert({ ...apiKey, id: "ak2" })).message).toMatch(/already exists for this user/);

    const provider = { orgId: ORG, userId: "u1", name: "google", issuer: "iss", subject: "sub", audience: "aud", createdAt: 0, updatedAt: 0 };
    store.oauthProviders.insert({ ...provider, id: "o1" });
    expect(refusal(() => store.oauthProviders.insert({ ...provider, id: "o2" })).message).toMatch(/already exists in the organization/);
  });

  it("a primary-key clash is not mistaken for a uniqueness rule", () => {
    const store = storeWithOrgs();
    store.wallets.insert(wallet("w1", ORG, "a"));
    let thrown: unknown;
    try {
      store.wallets.insert(wallet("w1", ORG, "b"));
    } catch (e) {
      thrown = e;
    }
    expect(isTurnkeyError(thrown)).toBe(false);
    expect((thrown as { code: string }).code).toBe("SQLITE_CONSTRAINT_PRIMARYKEY");
  });
});

describe("the uniqueness migration", () => {
  it("keeps a database with repeated names openable: the oldest keeps its name, later copies get their id appended", () => {
    const dir = mkdtempSync(join(tmpdir(), "emu-unique-"));
    try {
      const file = join(dir, "old.db");
      const old = new Database(file);
      const before = BASELINE_MIGRATIONS.findIndex((m) => m.includes("wallets_org_name")); // the schema as it was before the uniqueness rules
      for (const m of BASELINE_MIGRATIONS.slice(0, before)) old.exec(m);
      old.pragma(`user_version = ${before}`);
      old.prepare("INSERT INTO organizations (id, name, created_at, updated_at) VALUES (?, 'o', 0, 0)").run(ORG);
      // An older database keeps its sealing key inside (moved out to old.db.key on open).
      const key = randomBytes(32);
      old.prepare("INSERT INTO meta (key, value) VALUES ('sealing_key', ?)").run(key.toString("hex"));
      const add = old.prepare("INSERT INTO wallets (id, org_id, name, mnemonic_sealed, created_at, updated_at) VALUES (?, ?, ?, ?, 0, 0)");
      for (const [id, name] of [["w1", "dup"], ["w2", "dup"], ["w3", "solo"]]) add.run(id, ORG, name, createSealer(key).seal("m"));
      old.close();

      const store = openStore(file);
      expect(store.wallets.list(ORG).map((w) => w.name)).toEqual(["dup", "dup (w2)", "solo"]);
      expect(refusal(() => store.wallets.insert(wallet("w4", ORG, "dup"))).message).toMatch(/wallet label must be unique/);
      store.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
