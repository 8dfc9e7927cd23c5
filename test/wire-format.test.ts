/**
 * Request bodies read by protobuf's JSON mapping (docs/wire-format.md), as the service's gateway
 * reads them: every operation of both surfaces answers a body written with proto field names
 * (`organization_id`, nested fields included) as it answers the same body with JSON names; null
 * for an optional field is "not set"; one field under both names, and a value of the wrong type,
 * are refused naming the field. Bodies are generated from the contracts (contracts/sample.ts)
 * and sent as exact bytes, stamped by the official API-key stamper.
 */
import { describe, expect, it } from "vitest";
import { coordinator, proxy, type OperationContract } from "../contracts/index.js";
import { devKey, rawPost, sdkClient, submitBody } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";
import { send, type Answer, type Credentials } from "./fuzz/send.js";
import { totalChanges } from "./fuzz/state-digest.js";
import { leavesOf, respell, snakeCase } from "./fuzz/spellings.js";
import { sampleValue, type SampleOptions } from "../contracts/sample.js";
import { seededRng } from "./fuzz/prng.js";
import { generateValue } from "./fuzz/zod-generate.js";

const emu = useTestEmulator();
const ANVIL_0 = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const ETH_ACCOUNT = { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" };

const operations = (): [string, OperationContract][] => [...Object.entries(coordinator), ...Object.entries(proxy)];
const same = (k: string) => k;

/** Values that let requests reach past the contract: the fixture's organization, user, wallet and signer. */
const fill = (): Record<string, unknown> => ({
  organizationId: emu.info.organizationId,
  timestampMs: String(Date.now()),
  userId: emu.info.rootUserId,
  walletId: emu.info.walletId,
  signWith: ANVIL_0,
  path: ETH_ACCOUNT.path,
  mnemonicLength: 12,
});

const bodyOf = (op: OperationContract, opts: SampleOptions) => sampleValue(op.request, fill(), opts);

const credentialsFor = (op: OperationContract): Credentials =>
  op.kind === "proxy" ? { kind: "proxy", configId: emu.info.authProxyConfigId, origin: "http://localhost:3000" } : { kind: "stamp", key: devKey(emu) };

/**
 * Sends each body from the same stored state: whenever a request wrote, the emulator is reset
 * (the fixture's ids stay the same), so a first request's wallet or OTP does not change the
 * second one's answer.
 */
function sender() {
  let writes = totalChanges(emu.runtime.store.db);
  return async (path: string, op: OperationContract, body: unknown): Promise<Answer> => {
    const answer = await send(emu.url, path, Buffer.from(JSON.stringify(body)), credentialsFor(op));
    if (totalChanges(emu.runtime.store.db) !== writes) {
      emu.reset();
      writes = totalChanges(emu.runtime.store.db);
    }
    return answer;
  };
}

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** What must be equal between two answers: status; an error's code, message and field; a success's shape (keys, enum values, types). */
function gist(a: Answer): unknown {
  const json = JSON.parse(a.text) as Record<string, unknown>;
  if (a.status !== 200) {
    const details = (json.details ?? []) as { fieldViolations?: { field: string }[] }[];
    return { status: a.status, code: json.code, message: String(json.message).replace(UUID, "<id>"), field: details.find((d) => d.fieldViolations)?.fieldViolations?.[0]?.field };
  }
  return { status: 200, shape: shapeOf(json) };
}

function shapeOf(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(shapeOf);
  if (v && typeof v === "object") return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, shapeOf(x)]).sort(([a], [b]) => String(a).localeCompare(String(b))));
  // Enum values (statuses, activity types) must match; other strings (ids, times) need only be strings.
  if (typeof v === "string") return /^[A-Z][A-Z0-9_]+$/.test(v) ? v : "string";
  return typeof v;
}

const pathText = (path: (string | number)[]) => path.map((p) => (typeof p === "number" ? `[${p}]` : p)).join(".").replace(/\.\[/g, "[");

function at(root: unknown, path: (string | number)[]): Record<string | number, unknown> {
  return path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], root) as Record<string | number, unknown>;
}

describe("request bodies by protobuf's JSON mapping", () => {
  for (const optional of ["omit", "include"] as const) {
    it(`every operation answers proto field names as it answers JSON names (${optional === "omit" ? "required fields" : "every field, nested ones included"})`, async () => {
      const post = sender();
      const mismatches: string[] = [];
      const statuses: Record<number, number> = {};
      let respelled = 0;
      let contractValid = 0;
      for (const [path, op] of operations()) {
        const json = bodyOf(op, { optional, name: same });
        const protoNamed = bodyOf(op, { optional, name: snakeCase });
        if (JSON.stringify(json) !== JSON.stringify(protoNamed)) respelled++;
        if (op.request.safeParse(json).success) contractValid++;
        const a = gist(await post(path, op, json));
        const b = gist(await post(path, op, protoNamed));
        statuses[(a as { status: number }).status] = (statuses[(a as { status: number }).status] ?? 0) + 1;
        if (JSON.stringify(a) !== JSON.stringify(b)) mismatches.push(`${path}: JSON names ${JSON.stringify(a).slice(0, 300)}\n    proto names ${JSON.stringify(b).slice(0, 300)}`);
      }
      console.log(`[wire-format] ${optional}: ${operations().length} operations, ${respelled} with a field whose proto name differs, ${contractValid} bodies the contract accepts, statuses ${JSON.stringify(statuses)}`);
      expect(operations().length).toBeGreaterThan(200);
      expect(respelled).toBeGreaterThan(operations().length - 5);
      expect(contractValid).toBe(operations().length);
      expect(statuses[200]).toBeGreaterThan(optional === "omit" ? 50 : 30);
      expect(mismatches).toEqual([]);
    }, 240_000);
  }

  it("null for every optional field of 20 operations is 'not set': the same answer as leaving them out", async () => {
    const post = sender();
    const nulls = (v: unknown) => JSON.stringify(v).split(":null").length - 1;
    // The 20 operations with the most optional fields in their body (parameters included), for the most nulls.
    const chosen = operations()
      .map(([path, op]) => ({ path, op, body: bodyOf(op, { optional: "null" }) }))
      .sort((x, y) => nulls(y.body) - nulls(x.body) || x.path.localeCompare(y.path))
      .slice(0, 20);
    expect(chosen.every((c) => nulls(c.body) >= 3)).toBe(true);
    const mismatches: string[] = [];
    for (const { path, op, body } of chosen) {
      const omitted = bodyOf(op, { optional: "omit" });
      const a = gist(await post(path, op, omitted));
      const b = gist(await post(path, op, body));
      if (JSON.stringify(a) !== JSON.stringify(b)) mismatches.push(`${path} (${nulls(body)} nulls): ${JSON.stringify(a).slice(0, 200)} / ${JSON.stringify(b).slice(0, 200)}`);
    }
    expect(mismatches).toEqual([]);
  }, 120_000);

  it("refuses one field under both names in one object, naming it, in every operation that has such a field", async () => {
    const post = sender();
    const wrong: string[] = [];
    let tried = 0;
    for (const [path, op] of operations()) {
      const body = bodyOf(op, { optional: "include" });
      // The deepest field whose proto name differs: its proto name is added beside it.
      const leaf = leavesOf(op.request, body)
        .filter((l) => typeof l.path.at(-1) === "string" && snakeCase(l.path.at(-1) as string) !== l.path.at(-1))
        .sort((x, y) => y.path.length - x.path.length)[0];
      if (!leaf) continue;
      tried++;
      const name = leaf.path.at(-1) as string;
      const parent = at(body, leaf.path.slice(0, -1));
      parent[snakeCase(name)] = parent[name];
      const g = gist(await post(path, op, body)) as { status: number; code: number; message: string; field?: string };
      const field = pathText(leaf.path);
      const expected = { status: 400, code: 3, message: `bad request body: ${field}: duplicate field: sent as both "${name}" and "${snakeCase(name)}"`, field };
      if (JSON.stringify(g) !== JSON.stringify(expected)) wrong.push(`${path}: ${JSON.stringify(g)}`);
    }
    expect(tried).toBeGreaterThan(200);
    expect(wrong).toEqual([]);
  }, 120_000);

  it("refuses a number for a string field and a string for a bool field sent by proto name, naming the field by its JSON name", async () => {
    const post = sender();
    const wrong: string[] = [];
    const tried = { string: 0, boolean: 0 };
    for (const [path, op] of operations()) {
      const body = bodyOf(op, { optional: "include" });
      for (const [type, value, received] of [
        ["string", 12345, "number"],
        ["boolean", "true", "string"],
      ] as const) {
        const leaf = leavesOf(op.request, body)
          .filter((l) => l.type === type)
          .sort((x, y) => y.path.length - x.path.length)[0];
        if (!leaf) continue;
        tried[type]++;
        const broken = structuredClone(body);
        at(broken, leaf.path.slice(0, -1))[leaf.path.at(-1)!] = value;
        const g = gist(await post(path, op, respell(op.request, broken, snakeCase))) as { status: number; message: string; field?: string };
        const field = pathText(leaf.path);
        if (g.status !== 400 || g.message !== `bad request body: ${field}: expected ${type}, received ${received}` || g.field !== field) wrong.push(`${path} ${field}: ${JSON.stringify(g)}`);
      }
    }
    expect(tried.string).toBeGreaterThan(180);
    expect(tried.boolean).toBeGreaterThan(50);
    expect(wrong).toEqual([]);
  }, 120_000);

  it("still refuses an enum value given by number (the document gives no numbering)", async () => {
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: "by number", accounts: [{ ...ETH_ACCOUNT, curve: 1 }] });
    const r = await rawPost(emu, "/public/v1/submit/create_wallet", body);
    expect(r.status).toBe(400);
    expect(r.json.code).toBe(3);
    expect(r.json.message).toMatch(/^invalid curve: parameters\.accounts\[0\]\.curve: invalid value, expected one of CURVE_SECP256K1/);
  });

  it("mixed spellings at random, over random bodies of every operation, answer as JSON names do", async () => {
    const post = sender();
    const rng = seededRng(Number(process.env.FUZZ_SEED ?? 0x9a0b));
    const fillers = Object.fromEntries(Object.entries(fill()).map(([k, v]) => [k, () => (k === "timestampMs" ? String(Date.now()) : v)]));
    const mismatches: string[] = [];
    for (const [path, op] of operations()) {
      const { value } = generateValue(op.request, rng, fillers);
      const mixed = respell(op.request, value, (k) => (rng.chance(0.5) ? snakeCase(k) : k));
      const a = gist(await post(path, op, value));
      const b = gist(await post(path, op, mixed));
      if (JSON.stringify(a) !== JSON.stringify(b)) mismatches.push(`${path}: ${JSON.stringify(mixed).slice(0, 200)}\n    ${JSON.stringify(a).slice(0, 200)} / ${JSON.stringify(b).slice(0, 200)}`);
    }
    expect(mismatches).toEqual([]);
  }, 240_000);
});

describe("what a client in another language sends", () => {
  it("whoami with organization_id (the Ruby SDK's get_whoami)", async () => {
    const r = await rawPost(emu, "/public/v1/query/whoami", JSON.stringify({ organization_id: emu.info.organizationId }));
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ organizationId: emu.info.organizationId, userId: emu.info.rootUserId });
  });

  it("create_wallet with timestamp_ms, wallet_name and generate_app_proofs: the wallet is named, its account derived and proven", async () => {
    const name = `ruby-${Date.now()}`;
    const account = Object.fromEntries(Object.entries(ETH_ACCOUNT).map(([k, v]) => [snakeCase(k), v]));
    const body = JSON.stringify({
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestamp_ms: String(Date.now()),
      organization_id: emu.info.organizationId,
      parameters: { wallet_name: name, accounts: [account], mnemonic_length: null },
      generate_app_proofs: true,
    });
    const r = await rawPost(emu, "/public/v1/submit/create_wallet", body);
    expect(r.status).toBe(200);
    expect(r.json.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    // The intent is recorded as the contract names it.
    expect(r.json.activity.intent.createWalletIntent).toEqual({ walletName: name, accounts: [ETH_ACCOUNT] });
    const walletId = r.json.activity.result.createWalletResult.walletId as string;
    const c = sdkClient(emu);
    expect((await c.getWallet({ walletId })).wallet.walletName).toBe(name);
    const accounts = (await c.getWalletAccounts({ walletId })).accounts;
    expect(accounts.map((a) => a.path)).toEqual([ETH_ACCOUNT.path]);
    expect(r.json.activity.appProofs).toHaveLength(1);
    // Read again (get_activity renders from storage): still proven.
    expect((await c.getActivity({ activityId: r.json.activity.id })).activity.appProofs).toHaveLength(1);
  });

  it("generate_app_proofs by its proto name, at the top or inside parameters, asks for app proofs", async () => {
    for (const [top, inside] of [
      [{ generate_app_proofs: true }, {}],
      [{}, { generate_app_proofs: true }],
    ]) {
      const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_WALLET", { walletName: `proved-${Date.now()}-${Object.keys(top).length}`, accounts: [ETH_ACCOUNT], ...inside }, top);
      const r = await rawPost(emu, "/public/v1/submit/create_wallet", body);
      expect(r.status).toBe(200);
      expect(r.json.activity.appProofs).toHaveLength(1);
    }
  });

  it("create_users V3 with userEmail null (a root user without email)", async () => {
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_USERS_V3", {
      users: [{ userName: `no-email-${Date.now()}`, userEmail: null, userPhoneNumber: null, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }],
    });
    const r = await rawPost(emu, "/public/v1/submit/create_users", body);
    expect(r.status).toBe(200);
    expect(r.json.activity.type).toBe("ACTIVITY_TYPE_CREATE_USERS_V3");
    const userId = r.json.activity.result.createUsersResult.userIds[0] as string;
    expect((await sdkClient(emu).getUser({ userId })).user.userEmail).toBeUndefined();
  });

  it("a refusal inside an older version's parameters names the field, not 'parameters: Invalid input'", async () => {
    const body = submitBody(emu, "ACTIVITY_TYPE_CREATE_USERS_V3", { users: [{ userName: "n", userEmail: 7, apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] });
    const r = await rawPost(emu, "/public/v1/submit/create_users", body);
    expect(r.status).toBe(400);
    expect(r.json.message).toBe("bad request body: parameters.users[0].userEmail: expected string, received number");
  });

  it("the auth proxy reads proto names too (otp_init with otp_type)", async () => {
    const res = await fetch(`${emu.url}/v1/otp_init`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: "http://localhost:3000", "x-auth-proxy-config-id": emu.info.authProxyConfigId! },
      body: JSON.stringify({ otp_type: "OTP_TYPE_EMAIL", contact: "proto-names@example.com", email_customization: null }),
    });
    expect(res.status).toBe(200);
    expect((await res.json()).otpId).toMatch(UUID);
  });
});
