/**
 * Activity rows are kept compactly (emulator/core/store/kept-votes.ts: a vote's signed body refers to
 * the intent, organization and type its row holds; policy evaluations live in the row). What the
 * SDK reads must not change: every vote's `message` is the exact body the SDK sent (captured at
 * its fetch), its signature verifies over it (@noble/curves), and a database written in the
 * earlier form (whole votes, a policy_evaluations table), opened as a `--db` file, answers
 * get_activity, list_activities and get_policy_evaluations with the very same JSON.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import Database from "better-sqlite3";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { p256 } from "@noble/curves/nist.js";
import { hexToBytes } from "@noble/hashes/utils.js";
import type { RunningEmulator } from "../emulator/index.js";
import { BASELINE_MIGRATIONS } from "../emulator/core/store/schema.js";
import { renderActivity } from "../emulator/core/views/activity.js";
import { createApiKeyUser, sdkClient, startTestEmulator } from "./support.js";
import { Receiver } from "./webhooks/receiver.js";

const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";

/** Bodies the SDK sent, by the signature of their stamp. */
const sent = new Map<string, string>();
const realFetch = globalThis.fetch;

let emu: RunningEmulator;
const activityIds: string[] = [];

beforeAll(async () => {
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const stamp = new Headers(init?.headers).get("X-Stamp");
    if (stamp && typeof init?.body === "string") sent.set(JSON.parse(Buffer.from(stamp, "base64url").toString("utf8")).signature, init.body);
    return realFetch(input, init);
  });
  emu = await startTestEmulator();
  const root = sdkClient(emu);
  // Completed at once: one vote, the proposal.
  const signed = await root.signRawPayload({ signWith: ANVIL_0, payload: "0xabcd", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
  activityIds.push(signed.activity.id);
  // A 2-of-2 root quorum: a proposal approved by the other root user, one rejected by them.
  const second = await createApiKeyUser(emu, "second root");
  await root.updateRootQuorum({ threshold: 2, userIds: [emu.info.rootUserId, second.id] });
  const proposal = await root.createWallet({ walletName: "two votes", accounts: [] });
  await sdkClient(emu, second.key).approveActivity({ fingerprint: proposal.activity.fingerprint });
  const refused = await root.createWallet({ walletName: "refused", accounts: [] });
  await sdkClient(emu, second.key).rejectActivity({ fingerprint: refused.activity.fingerprint });
  activityIds.push(proposal.activity.id, refused.activity.id);
});

afterAll(async () => {
  vi.restoreAllMocks();
  await emu?.stop();
});

/** What the SDK reads about the activities. */
async function readBack(e: RunningEmulator) {
  const c = sdkClient(e);
  const out: Record<string, unknown> = { list: await c.getActivities({}) };
  for (const id of activityIds) {
    out[`activity ${id}`] = await c.getActivity({ activityId: id });
    out[`evaluations ${id}`] = await c.getPolicyEvaluations({ activityId: id });
  }
  return out;
}

describe("activity storage", () => {
  it("give every vote the exact body its voter stamped, with a signature that verifies over it", async () => {
    const c = sdkClient(emu);
    const votes = (await Promise.all(activityIds.map((activityId) => c.getActivity({ activityId })))).flatMap((r) => r.activity.votes);
    expect(votes).toHaveLength(5);
    for (const v of votes) {
      expect(v.message).toBe(sent.get(v.signature));
      expect(p256.verify(hexToBytes(v.signature), new TextEncoder().encode(v.message), hexToBytes(v.publicKey), { format: "der", lowS: false })).toBe(true);
    }
    expect(votes.map((v) => v.selection)).toEqual(["VOTE_SELECTION_APPROVED", "VOTE_SELECTION_APPROVED", "VOTE_SELECTION_APPROVED", "VOTE_SELECTION_APPROVED", "VOTE_SELECTION_REJECTED"]);
    // The approval's body names the fingerprint, not the intent: kept whole.
    expect(JSON.parse(votes[2]!.message).parameters).toEqual({ fingerprint: expect.stringMatching(/^sha256:/) });
  });

  it("read back identically from a database written in the earlier form (whole votes, a policy_evaluations table)", async () => {
    const before = await readBack(emu);
    const dir = mkdtempSync(join(tmpdir(), "activity-storage-"));
    let old: RunningEmulator | undefined;
    try {
      const file = join(dir, "old.db");
      writeFileSync(file, inEarlierForm(emu.runtime.store.image()));
      old = await startTestEmulator({ db: file });
      expect(old.runtime.store.db.prepare("SELECT name FROM sqlite_master WHERE name = 'policy_evaluations'").get()).toBeUndefined();
      const after = await readBack(old);
      expect(JSON.stringify(after)).toBe(JSON.stringify(before));
    } finally {
      await old?.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("show each voter as they are now: a rendering of the voter is not reused once their data changes", async () => {
    const e = await startTestEmulator();
    try {
      const c = sdkClient(e);
      const { activity } = await c.signRawPayload({ signWith: ANVIL_0, payload: "0xabcd", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
      const voter = async () => (await c.getActivity({ activityId: activity.id })).activity.votes[0]!.user;
      const first = await voter();
      expect(await voter()).toEqual(first);
      await c.updateUser({ userId: e.info.rootUserId, userName: "renamed root" });
      expect((await voter()).userName).toBe("renamed root");
      const { userTagId } = await c.createUserTag({ userTagName: "voters", userIds: [e.info.rootUserId] });
      expect((await voter()).userTags).toEqual([userTagId]);
      await c.deleteUserTags({ userTagIds: [userTagId] });
      expect((await voter()).userTags).toEqual([]);
      expect(await voter()).toEqual({ ...first, userName: "renamed root", updatedAt: expect.anything() });
    } finally {
      await e.stop();
    }
  });

  it("never keep a voter rendering read inside a transaction that changed the user and then rolled back", async () => {
    const e = await startTestEmulator();
    try {
      const c = sdkClient(e);
      const { activity } = await c.signRawPayload({ signWith: ANVIL_0, payload: "0xabcd", encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
      const { store } = e.runtime;
      const row = () => store.activities.get(e.info.organizationId, activity.id)!;
      const voterName = () => (renderActivity(e.runtime, row()).votes as { user: { userName: string } }[])[0]!.user.userName;
      const before = voterName();
      expect(() =>
        store.tx(() => {
          store.users.update(e.info.rootUserId, { name: "never committed" }, Date.now());
          expect(voterName()).toBe("never committed"); // what the transaction sees
          throw new Error("roll back");
        }),
      ).toThrow("roll back");
      expect(voterName()).toBe(before);
      expect((await c.getActivity({ activityId: activity.id })).activity.votes[0]!.user.userName).toBe(before);
    } finally {
      await e.stop();
    }
  });

  it("answer a full database with a clear RESOURCE_EXHAUSTED rpcStatus, nothing written", async () => {
    const e = await startTestEmulator();
    try {
      const db = e.runtime.store.db;
      const count = () => (db.prepare("SELECT COUNT(*) AS n FROM activities").get() as { n: number }).n;
      const before = count();
      // A database that cannot grow: the pages it has are all it may have (a full disk, or the 1 GiB cap of a loaded state image).
      db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true }) as number}`);
      const big = "x".repeat(100_000); // more overflow pages than the free list holds
      const error = await sdkClient(e)
        .signRawPayload({ signWith: ANVIL_0, payload: `0x${Buffer.from(big).toString("hex")}`, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" })
        .then(
          () => expect.unreachable("a full database cannot take a new activity"),
          (err: { status?: number; code?: number; message: string }) => err,
        );
      expect(error.code).toBe(8);
      expect(error.message).toContain("database is full");
      expect(count()).toBe(before);
    } finally {
      await e.stop();
    }
  });

  it("sign with at most 15 SQL statements per activity, none re-reading the voter to render it", async () => {
    const e = await startTestEmulator();
    try {
      const c = sdkClient(e);
      const sign = (payload: string) => c.signRawPayload({ signWith: ANVIL_0, payload, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
      await sign("0x01");
      // The webhook dispatcher's once-a-second scan for due deliveries may run meanwhile: not the request's.
      const statements = (await executedStatements(e, () => sign("0x02"))).filter((sql) => !/FROM webhook_deliveries\b/.test(sql));
      expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(15);
      expect(statements.filter((sql) => /FROM (authenticators|oauth_providers|tag_members|app_proofs)\b/.test(sql))).toEqual([]);
      expect(statements.filter((sql) => /^INSERT/.test(sql))).toHaveLength(1);
    } finally {
      await e.stop();
    }
  });

  it("with a webhook endpoint subscribed, the outbox renders the activity inside its transaction without re-reading the voter either", async () => {
    const e = await startTestEmulator();
    const receiver = await Receiver.start();
    try {
      const c = sdkClient(e);
      await c.createWebhookEndpoint({ url: receiver.url, name: "statements", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
      const sign = (payload: string) => c.signRawPayload({ signWith: ANVIL_0, payload, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
      await sign("0x01");
      // In memory, the outbox row is written after the answer, at the next quiet moment
      // (emulator/families/webhooks/dispatcher.ts): here that moment never comes until the window is over (or the
      // hold's 1 s limit passes).
      const quiet = vi.spyOn(e.runtime.serving!, "untilQuiet").mockReturnValue(5);
      let all: string[];
      try {
        all = await executedStatements(e, () => sign("0x02"));
      } finally {
        quiet.mockRestore();
      }
      expect(all.filter((sql) => /^INSERT INTO webhook_deliveries\b/.test(sql))).toEqual([]);
      const statements = all.filter((sql) => !/\bwebhook_deliveries\b/.test(sql));
      // The same reads as without an endpoint (the test above).
      expect(statements.filter((sql) => /FROM (authenticators|oauth_providers|tag_members|app_proofs)\b/.test(sql))).toEqual([]);
      expect(statements.length, statements.join("\n")).toBeLessThanOrEqual(15);
      await receiver.count(2); // both signatures at least (the endpoint's own creation may come too)
    } finally {
      await e.stop();
      await receiver.stop();
    }
  });
});

/**
 * The state rewritten as the emulator wrote it before compact rows: each vote whole (its
 * message the body captured at the SDK's fetch), evaluations in their own table, and the
 * schema version of that time.
 */
function inEarlierForm(image: Buffer): Buffer {
  const db = new Database(image);
  try {
    const version = BASELINE_MIGRATIONS.findIndex((m) => m.includes("DROP TABLE policy_evaluations"));
    expect(version).toBeGreaterThan(0);
    db.exec(`
      CREATE TABLE policy_evaluations (id TEXT PRIMARY KEY, activity_id TEXT NOT NULL, org_id TEXT NOT NULL, vote_id TEXT, evaluations TEXT NOT NULL, created_at INTEGER NOT NULL);
      CREATE INDEX policy_evaluations_activity ON policy_evaluations(activity_id);
    `);
    const rows = db.prepare("SELECT id, org_id, votes, user_id, created_at, evaluations FROM activities").all() as { id: string; org_id: string; votes: string; user_id: string; created_at: number; evaluations: string | null }[];
    const setVotes = db.prepare("UPDATE activities SET votes = ? WHERE id = ?");
    const addEvaluation = db.prepare("INSERT INTO policy_evaluations VALUES (?, ?, ?, ?, ?, ?)");
    for (const r of rows) {
      const votes = (JSON.parse(r.votes) as Record<string, unknown>[]).map((k) => ({
        id: k.id,
        userId: k.userId ?? r.user_id,
        selection: k.selection ?? "VOTE_SELECTION_APPROVED",
        message: sent.get(k.signature as string) ?? expect.unreachable(`no body was sent with signature ${String(k.signature)}`),
        publicKey: k.publicKey,
        signature: k.signature,
        scheme: k.scheme,
        credentialId: k.credentialId,
        credentialType: k.credentialType,
        createdAt: k.createdAt ?? r.created_at,
      }));
      setVotes.run(JSON.stringify(votes), r.id);
      for (const e of JSON.parse(r.evaluations ?? "[]") as { id: string; voteId: string | null; evaluations: unknown[]; createdAt: number }[]) {
        addEvaluation.run(e.id, r.id, r.org_id, e.voteId, JSON.stringify(e.evaluations), e.createdAt);
      }
    }
    db.exec("ALTER TABLE activities DROP COLUMN evaluations");
    // Later migrations run again on open: undo those that are not re-runnable (otps.user_identifier,
    // velocity controls, TVC quorum keys). A new migration that adds a table or column belongs here too.
    db.exec("DROP INDEX otps_user_identifier; ALTER TABLE otps DROP COLUMN user_identifier");
    db.exec("DROP TABLE velocity_control_points; DROP TABLE velocity_controls");
    db.exec("DROP TABLE tvc_provisioning_shares; DROP TABLE tvc_quorum_key_shares; DROP TABLE tvc_quorum_keys");
    for (const column of ["key_source", "wallet_id", "encrypt_path", "sign_path"]) db.exec(`ALTER TABLE tvc_operators DROP COLUMN ${column}`);
    db.exec("ALTER TABLE activities DROP COLUMN asks_app_proofs");
    db.pragma(`user_version = ${version}`);
    return db.serialize();
  } finally {
    db.close();
  }
}

/** The SQL of every statement the instance's database runs while `fn` runs (better-sqlite3 has no counter: its Statement methods are wrapped). */
async function executedStatements(e: RunningEmulator, fn: () => Promise<unknown>): Promise<string[]> {
  const proto = Object.getPrototypeOf(e.runtime.store.db.prepare("SELECT 1")) as Record<string, (...args: unknown[]) => unknown>;
  const methods = ["run", "get", "all", "iterate"] as const;
  const original = Object.fromEntries(methods.map((m) => [m, proto[m]!]));
  const seen: string[] = [];
  for (const m of methods) {
    proto[m] = function (this: { source: string }, ...args: unknown[]) {
      seen.push(this.source.trim());
      return original[m]!.apply(this, args);
    };
  }
  try {
    await fn();
  } finally {
    for (const m of methods) proto[m] = original[m]!;
  }
  return seen;
}
