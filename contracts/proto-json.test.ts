import { describe, expect, it } from "vitest";
import { z } from "zod";
import { coordinator, coordinatorSchemas, proxy } from "./index.js";
import { legacyVariant } from "./legacy.js";
import { fieldOf, fromProtoJson, protoName } from "./proto-json.js";
import { parseRequest } from "./validate.js";

const read = (schema: z.ZodType, body: unknown) => fromProtoJson(schema, body);
const createWallet = coordinator["/public/v1/submit/create_wallet"]!.request;
const message = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("expected a refusal");
};

describe("protoName", () => {
  it("is the snake_case of the JSON name, digits kept with the word before them", () => {
    // Proto names as tkhq/rust-sdk's proto files spell these fields.
    expect(protoName("organizationId")).toBe("organization_id");
    expect(protoName("clientDataJson")).toBe("client_data_json");
    expect(protoName("oauth2CredentialId")).toBe("oauth2_credential_id");
    expect(protoName("chainCaip2")).toBe("chain_caip2");
    expect(protoName("type")).toBe("type");
  });
});

describe("fromProtoJson", () => {
  it("renames proto names at every depth, arrays of objects included, and leaves JSON names as they are", () => {
    const body = {
      type: "ACTIVITY_TYPE_CREATE_WALLET",
      timestamp_ms: "1",
      organizationId: "o",
      parameters: { wallet_name: "w", accounts: [{ curve: "CURVE_SECP256K1", path_format: "PATH_FORMAT_BIP32", path: "m/0", address_format: "ADDRESS_FORMAT_ETHEREUM" }], mnemonic_length: 12 },
    };
    expect(read(createWallet, body)).toEqual({
      value: {
        type: "ACTIVITY_TYPE_CREATE_WALLET",
        timestampMs: "1",
        organizationId: "o",
        parameters: { walletName: "w", accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }], mnemonicLength: 12 },
      },
    });
  });

  it("leaves out null fields; leaves unknown fields and null array items for the contract to ignore or refuse", () => {
    const body = { organization_id: "o", timestampMs: null, parameters: { walletName: "w", accounts: [null], mnemonicLength: null, unknown_field: 1 }, extra: null };
    expect(read(createWallet, body)).toEqual({ value: { organizationId: "o", parameters: { walletName: "w", accounts: [null], unknown_field: 1 }, extra: null } });
    const parsed = parseRequest(createWallet, { type: "ACTIVITY_TYPE_CREATE_WALLET", timestamp_ms: "1", organization_id: "o", parameters: { wallet_name: "w", accounts: [], unknown_field: 1 }, extra: null });
    expect(parsed).toEqual({ type: "ACTIVITY_TYPE_CREATE_WALLET", timestampMs: "1", organizationId: "o", parameters: { walletName: "w", accounts: [] } });
  });

  it("gives back a body already in the contract's spelling as it is, and copies only what changes", () => {
    const body = { type: "ACTIVITY_TYPE_CREATE_WALLET", timestampMs: "1", organizationId: "o", parameters: { walletName: "w", accounts: [{ curve: "CURVE_SECP256K1" }] } };
    expect((read(createWallet, body) as { value: unknown }).value).toBe(body);
    const respelled = { ...body, parameters: { ...body.parameters, mnemonic_length: 12 } };
    const out = (read(createWallet, respelled) as { value: typeof body }).value;
    expect(out.parameters).toEqual({ walletName: "w", accounts: [{ curve: "CURVE_SECP256K1" }], mnemonicLength: 12 });
    expect(out.parameters.accounts).toBe(body.parameters.accounts);
  });

  it("refuses one field under both names, null or not, naming it by its JSON name", () => {
    expect(read(createWallet, { organizationId: "o", organization_id: "o" })).toEqual({ refused: { path: ["organizationId"], why: 'duplicate field: sent as both "organizationId" and "organization_id"' } });
    expect(read(createWallet, { parameters: { accounts: [{}, { path_format: null, pathFormat: "PATH_FORMAT_BIP32" }] } })).toEqual({
      refused: { path: ["parameters", "accounts", 1, "pathFormat"], why: 'duplicate field: sent as both "pathFormat" and "path_format"' },
    });
  });

  it("keeps a map's keys as sent and reads its values", () => {
    // The document's one map in a request (no routed operation sends it today).
    const update = coordinatorSchemas.v1UpdateAuthProxyConfigIntent!;
    const out = read(update, { wallet_kit_settings: { oauth_client_ids: { google_web: "id-1", apple: null } } });
    expect(out).toEqual({ value: { walletKitSettings: { oauthClientIds: { google_web: "id-1", apple: null } } } });
    const nested = z.object({ byName: z.record(z.string(), z.object({ fieldName: z.string() })) });
    expect(read(nested, { by_name: { some_key: { field_name: "v" } } })).toEqual({ value: { byName: { some_key: { fieldName: "v" } } } });
  });

  it("merges the fields of a union's objects (an older version's parameters or the current ones)", () => {
    const op = coordinator["/public/v1/submit/create_users"]!;
    const v3 = legacyVariant(op, "ACTIVITY_TYPE_CREATE_USERS_V3", ["ACTIVITY_TYPE_CREATE_USERS_V3"])!;
    const out = read(v3.request, { parameters: { users: [{ user_name: "u", user_email: null, user_phone_number: "+1", api_keys: [{ api_key_name: "k", curve_type: "API_KEY_CURVE_P256" }] }] } });
    expect(out).toEqual({ value: { parameters: { users: [{ userName: "u", userPhoneNumber: "+1", apiKeys: [{ apiKeyName: "k", curveType: "API_KEY_CURVE_P256" }] }] } } });
  });

  it("keeps the fields a loose object keeps, and __proto__ as an own key of data", () => {
    const loose = z.looseObject({ knownField: z.string().optional() });
    const body = JSON.parse('{"known_field":"a","other":1,"__proto__":{"polluted":true}}');
    const out = read(loose, body) as { value: Record<string, unknown> };
    expect(Object.keys(out.value)).toEqual(["knownField", "other", "__proto__"]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(out.value)).toBe(Object.prototype);
  });

  it("reads a recursive schema without looping", () => {
    type Tree = { childNodes?: Tree[]; nodeName: string };
    const tree: z.ZodType<Tree> = z.lazy(() => z.object({ nodeName: z.string(), childNodes: z.array(tree).optional() }));
    expect(read(tree, { node_name: "a", child_nodes: [{ node_name: "b", child_nodes: [{ node_name: "c" }] }] })).toEqual({
      value: { nodeName: "a", childNodes: [{ nodeName: "b", childNodes: [{ nodeName: "c" }] }] },
    });
  });

  it("reads auth-proxy bodies the same way", () => {
    const signup = proxy["/v1/signup"]!.request;
    expect(read(signup, { user_email: "a@b.c", api_keys: [], authenticators: [], oauth_providers: [], wallet: { wallet_name: "w", accounts: [] } })).toEqual({
      value: { userEmail: "a@b.c", apiKeys: [], authenticators: [], oauthProviders: [], wallet: { walletName: "w", accounts: [] } },
    });
  });
});

describe("fieldOf", () => {
  it("reads a field under either name; null is not set", () => {
    expect(fieldOf({ generate_app_proofs: true }, "generateAppProofs")).toBe(true);
    expect(fieldOf({ generateAppProofs: true }, "generateAppProofs")).toBe(true);
    expect(fieldOf({ generateAppProofs: null }, "generateAppProofs")).toBeUndefined();
    expect(fieldOf(["x"], "generateAppProofs")).toBeUndefined();
    expect(fieldOf(undefined, "generateAppProofs")).toBeUndefined();
  });
});

describe("parseRequest with the mapping", () => {
  const whoami = coordinator["/public/v1/query/whoami"]!.request;
  it("accepts proto names and nulls, answers the usual refusals for what is then missing", () => {
    expect(parseRequest(whoami, { organization_id: "o" })).toEqual({ organizationId: "o" });
    expect(message(() => parseRequest(whoami, { organizationId: null }))).toBe("bad request body: organizationId: required field missing");
    expect(message(() => parseRequest(createWallet, { type: "ACTIVITY_TYPE_CREATE_WALLET", timestamp_ms: "1", organization_id: "o", parameters: { wallet_name: null, accounts: [] } }))).toBe(
      "bad request body: parameters.walletName: required field missing",
    );
  });

  it("refuses two spellings and wrong types naming the field", () => {
    expect(message(() => parseRequest(whoami, { organizationId: "o", organization_id: "o" }))).toBe('bad request body: organizationId: duplicate field: sent as both "organizationId" and "organization_id"');
    expect(message(() => parseRequest(whoami, { organization_id: 5 }))).toBe("bad request body: organizationId: expected string, received number");
  });

  it("names the field inside a union that every branch refused", () => {
    const op = coordinator["/public/v1/submit/create_users"]!;
    const v3 = legacyVariant(op, "ACTIVITY_TYPE_CREATE_USERS_V3", ["ACTIVITY_TYPE_CREATE_USERS_V3"])!;
    const body = { type: "ACTIVITY_TYPE_CREATE_USERS_V3", timestampMs: "1", organizationId: "o", parameters: { users: [{ userName: "u", userEmail: 7, apiKeys: [], authenticators: [], userTags: [], oauthProviders: [] }] } };
    expect(message(() => parseRequest(v3.request, body))).toBe("bad request body: parameters.users[0].userEmail: expected string, received number");
    const envelope = { type: "ACTIVITY_TYPE_CREATE_WALLET", timestampMs: "1", organizationId: "o" };
    expect(message(() => parseRequest(createWallet, { ...envelope, parameters: { walletName: "w", accounts: [], mnemonicLength: true } }))).toBe(
      "bad request body: parameters.mnemonicLength: expected number, received boolean",
    );
  });
});
