/**
 * Bad input: every missing required field (as the published API document marks them),
 * malformed JSON, wrong activity types and random junk give a 4xx rpcStatus naming the
 * field, and leave the store untouched.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { newP256KeyPair, rawPost, storeCounts } from "./support.js";
import { useTestEmulator } from "./use-test-emulator.js";

const openapi = JSON.parse(readFileSync(new URL("../contracts/generated/openapi.json", import.meta.url), "utf8"));
const schemaOf = (ref: string) => openapi.components.schemas[ref.split("/").pop()!];

const emu = useTestEmulator();

/** Valid parameters for each emulated submit operation. */
function validParameters(): Record<string, unknown> {
  const user = emu.info.rootUserId;
  return {
    create_users: {
      users: [{ userName: "v", userEmail: "v@example.com", apiKeys: [{ apiKeyName: "k", publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }],
    },
    create_api_keys: { userId: user, apiKeys: [{ apiKeyName: "k", publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }] },
    update_user_name: { userId: user, userName: "Dev Root User" },
    create_user_tag: { userTagName: `tag-${Math.random()}`, userIds: [user] },
  };
}

/** Every path to a required field of `schema`, descending into the first array item. */
function requiredPaths(schema: any, value: any, prefix: (string | number)[] = []): (string | number)[][] {
  if (schema?.$ref) return requiredPaths(schemaOf(schema.$ref), value, prefix);
  const out: (string | number)[][] = [];
  if (schema?.type === "object" && value && typeof value === "object") {
    for (const k of schema.required ?? []) out.push([...prefix, k]);
    for (const [k, sub] of Object.entries(schema.properties ?? {})) if (value[k] !== undefined) out.push(...requiredPaths(sub, value[k], [...prefix, k]));
  } else if (schema?.type === "array" && Array.isArray(value) && value.length) {
    out.push(...requiredPaths(schema.items, value[0], [...prefix, 0]));
  }
  return out;
}

function without(obj: any, path: (string | number)[]): any {
  const copy = structuredClone(obj);
  let cur = copy;
  for (const p of path.slice(0, -1)) cur = cur[p];
  delete cur[path[path.length - 1]!];
  return copy;
}

describe("missing required fields", () => {
  for (const [name, params] of Object.entries({ create_users: 0, create_api_keys: 0, update_user_name: 0, create_user_tag: 0 })) {
    void params;
    it(`${name}: each missing field is a 400 naming it`, async () => {
      const path = `/public/v1/submit/${name}`;
      const op = openapi.paths[path].post;
      const body = { type: op["x-activity-type"], timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: validParameters()[name] };
      const paths = requiredPaths(op.requestBody.content["application/json"].schema, body);
      expect(paths.length).toBeGreaterThan(3);
      for (const p of paths) {
        const before = storeCounts(emu);
        const r = await rawPost(emu, path, JSON.stringify(without(body, p)));
        const field = p.map((x) => (typeof x === "number" ? `[${x}]` : x)).join(".").replace(/\.\[/g, "[");
        expect({ field, status: r.status }).toEqual({ field, status: 400 });
        expect(r.json.code).toBe(3);
        expect(r.json.message).toContain(field);
        expect(storeCounts(emu)).toEqual(before);
      }
      // The complete body is accepted.
      const ok = await rawPost(emu, path, JSON.stringify(body));
      expect(ok.status).toBe(200);
      expect(ok.json.activity.status).toBe("ACTIVITY_STATUS_COMPLETED");
    });
  }
});

describe("malformed requests", () => {
  it("malformed JSON is a 400", async () => {
    for (const body of ["{", "not json", "[1,2]", "null", ""]) {
      const r = await rawPost(emu, "/public/v1/submit/create_user_tag", body);
      expect(r.status).toBe(400);
      expect(r.json).toMatchObject({ code: 3, message: expect.stringMatching(/JSON|body/) });
    }
  });

  it("a wrong activity type for the path is a 400 naming `type`", async () => {
    const body = JSON.stringify({ type: "ACTIVITY_TYPE_CREATE_WALLET", timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters: { userTagName: "x", userIds: [] } });
    const r = await rawPost(emu, "/public/v1/submit/create_user_tag", body);
    expect(r.status).toBe(400);
    expect(r.json.message).toContain("type");
    expect(r.json.message).toContain("ACTIVITY_TYPE_CREATE_USER_TAG");
  });

  it("wrong field types and bad values are 400s naming the field", async () => {
    const cases: [string, unknown, string][] = [
      ["create_user_tag", { userTagName: 5, userIds: [] }, "parameters.userTagName"],
      ["create_user_tag", { userTagName: "x", userIds: ["not-a-uuid"] }, "parameters.userIds[0]"],
      ["create_api_keys", { userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "k", publicKey: "02abcd", curveType: "API_KEY_CURVE_P256" }] }, "parameters.apiKeys[0].publicKey"],
      ["create_api_keys", { userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "k", publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_RSA" }] }, "parameters.apiKeys[0].curveType"],
      ["create_api_keys", { userId: emu.info.rootUserId, apiKeys: [{ apiKeyName: "k", publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256", expirationSeconds: "-5" }] }, "parameters.apiKeys[0].expirationSeconds"],
      ["create_users", { users: [{ userName: "x", userEmail: "nope", apiKeys: [], authenticators: [], oauthProviders: [], userTags: [] }] }, "parameters.users[0].userEmail"],
      ["update_user_phone_number", { userId: emu.info.rootUserId, userPhoneNumber: "555-1234" }, "parameters.userPhoneNumber"],
    ];
    for (const [name, parameters, field] of cases) {
      const before = storeCounts(emu);
      const op = openapi.paths[`/public/v1/submit/${name}`].post;
      const r = await rawPost(emu, `/public/v1/submit/${name}`, JSON.stringify({ type: op["x-activity-type"], timestampMs: String(Date.now()), organizationId: emu.info.organizationId, parameters }));
      expect({ name, field, status: r.status }).toEqual({ name, field, status: r.json.message?.includes("not found") ? 404 : 400 });
      expect(JSON.stringify(r.json)).toContain(field.split(".").pop()!.replace(/\[\d+\]$/, ""));
      expect(storeCounts(emu)).toEqual(before);
    }
  });

  it("fuzz: random bodies never crash the server or write anything", async () => {
    let seed = 12345;
    const rand = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
    const atoms = [null, true, 0, -1, Infinity, "", "x".repeat(300), "ACTIVITY_TYPE_CREATE_USER_TAG", emu.info.organizationId, [], {}, "\u0000", "0x", String(Date.now())];
    const junk = (depth: number): unknown => {
      const r = rand();
      if (depth > 3 || r < 0.5) return atoms[Math.floor(rand() * atoms.length)];
      if (r < 0.75) return Array.from({ length: Math.floor(rand() * 3) }, () => junk(depth + 1));
      const keys = ["type", "timestampMs", "organizationId", "parameters", "userTagName", "userIds", "users", "apiKeys", "__proto__", "constructor"];
      return Object.fromEntries(Array.from({ length: Math.floor(rand() * 5) }, () => [keys[Math.floor(rand() * keys.length)]!, junk(depth + 1)]));
    };
    const before = storeCounts(emu);
    const paths = ["create_user_tag", "create_users", "create_api_keys", "delete_users", "update_user"].map((n) => `/public/v1/submit/${n}`);
    for (let i = 0; i < 150; i++) {
      const body = JSON.stringify(junk(0)) ?? "null";
      const r = await rawPost(emu, paths[i % paths.length]!, body);
      expect(r.status, body).toBeGreaterThanOrEqual(400);
      expect(r.status, body).toBeLessThan(500);
      expect(typeof r.json.code).toBe("number");
    }
    expect(storeCounts(emu)).toEqual(before);
  });
});
