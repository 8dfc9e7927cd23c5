import { describe, expect, it } from "vitest";
import { TurnkeyError } from "../core/errors.js";
import { registry } from "../families.js";
import { checkRequestLimits, MAX_ARRAY_ITEMS, MAX_NAME_LENGTH, MAX_SMART_CONTRACT_INTERFACE_BYTES, nameProblem } from "./request-limits.js";

const { activities, queries } = registry;

/** The operation's array caps, as its registry entry declares them. */
const limitsOf = (op: string) => (activities.get(op) ?? queries.get(op))?.arrayLimits;

/** The error `checkRequestLimits` throws for the operation's request, or undefined. */
function rejection(op: string, body: unknown): TurnkeyError | undefined {
  try {
    checkRequestLimits(op, body, limitsOf(op));
    return undefined;
  } catch (e) {
    return e as TurnkeyError;
  }
}
const fieldOf = (e: TurnkeyError | undefined) =>
  (e?.details.find((d) => d["@type"].endsWith("BadRequest")) as { fieldViolations: { field: string }[] } | undefined)?.fieldViolations[0]?.field;

const wallet = (walletName: string, accounts = 1) => ({
  type: "ACTIVITY_TYPE_CREATE_WALLET",
  timestampMs: "1",
  organizationId: "o",
  parameters: { walletName, accounts: Array.from({ length: accounts }, () => ({ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" })) },
});

describe("checkRequestLimits", () => {
  it("accepts ordinary names, including non-Latin text, emoji and spaces", () => {
    for (const name of ["My wallet", "Кошелёк 1", "钱包", "wallet 😀 👩‍👩‍👧", "x".repeat(MAX_NAME_LENGTH), "😀".repeat(MAX_NAME_LENGTH), "tab-free name", ""]) {
      expect(rejection("create_wallet", wallet(name)), name).toBeUndefined();
    }
  });

  it("rejects a name longer than the limit with a 400 naming the field", () => {
    const e = rejection("create_wallet", wallet("x".repeat(MAX_NAME_LENGTH + 1)));
    expect(e).toBeInstanceOf(TurnkeyError);
    expect(e!.httpStatus).toBe(400);
    expect(e!.message).toMatch(/parameters\.walletName: must be at most 256 characters \(got 257\)/);
    expect(fieldOf(e)).toBe("parameters.walletName");
  });

  it("counts characters as code points, not UTF-16 units", () => {
    // 256 emoji are 512 UTF-16 units but 256 characters.
    expect(rejection("create_wallet", wallet("😀".repeat(MAX_NAME_LENGTH)))).toBeUndefined();
    expect(fieldOf(rejection("create_wallet", wallet("😀".repeat(MAX_NAME_LENGTH + 1))))).toBe("parameters.walletName");
  });

  it("rejects control characters, bidi overrides and unpaired surrogates in names", () => {
    const bad = ["a\u0000b", "line\nbreak", "tab\there", "\u001b[31mred", "del\u007f", "c1\u0085", "\u202eevil", "\u2066iso", "lone \ud800 high", "lone \udc00 low"];
    for (const name of bad) {
      const e = rejection("create_wallet", wallet(name));
      expect(fieldOf(e), JSON.stringify(name)).toBe("parameters.walletName");
      expect(e!.message).toMatch(/control characters|valid Unicode/);
    }
    expect(nameProblem("a\u0000b")).toMatch(/U\+0000 at index 1/);
  });

  it("checks names at any depth and names the exact path", () => {
    const body = {
      parameters: {
        users: [
          { userName: "ok", apiKeys: [] },
          { userName: "ok", apiKeys: [{ apiKeyName: "fine" }, { apiKeyName: "bad\u0007" }] },
        ],
      },
    };
    expect(fieldOf(rejection("create_users", body))).toBe("parameters.users[1].apiKeys[1].apiKeyName");
    expect(fieldOf(rejection("create_policy", { parameters: { policyName: "p\r\n" } }))).toBe("parameters.policyName");
    expect(fieldOf(rejection("create_smart_contract_interface", { parameters: { label: "x".repeat(300) } }))).toBe("parameters.label");
    expect(fieldOf(rejection("create_wallet_accounts", { parameters: { accounts: [{ name: "\u0000" }] } }))).toBe("parameters.accounts[0].name");
  });

  it("leaves non-name strings alone (notes, payloads, conditions)", () => {
    const body = { parameters: { notes: "multi\nline\tnotes", payload: "\u0000".repeat(10), condition: "x".repeat(5000), username: "not\u0000checked?" } };
    // `username` is not a display-name field by this rule (it ends in lowercase "name").
    expect(rejection("create_policy", body)).toBeUndefined();
  });

  it("caps arrays that count against a documented per-organization or per-user allowance", () => {
    expect(limitsOf("create_users")).toEqual({ users: 100, apiKeys: 10, authenticators: 10, oauthProviders: 10 });
    // privateKeys: V3 makes private keys in the new sub-organization.
    expect(limitsOf("create_sub_organization")).toEqual({ rootUsers: 100, apiKeys: 10, authenticators: 10, oauthProviders: 10, accounts: 100, privateKeys: 1000 });
    expect([limitsOf("create_policies"), limitsOf("create_private_keys"), limitsOf("create_wallet")]).toEqual([{ policies: 100 }, { privateKeys: 1000 }, { accounts: 100 }]);
    expect(rejection("create_wallet", wallet("w", 100))).toBeUndefined();
    const e = rejection("create_wallet", wallet("w", 101));
    expect(fieldOf(e)).toBe("parameters.accounts");
    expect(e!.message).toMatch(/at most 100 items \(got 101\)/);
    const keys = Array.from({ length: 11 }, (_, i) => ({ apiKeyName: `k${i}` }));
    expect(fieldOf(rejection("create_api_keys", { parameters: { apiKeys: keys } }))).toBe("parameters.apiKeys");
    expect(fieldOf(rejection("create_users", { parameters: { users: [{ userName: "u", apiKeys: keys }] } }))).toBe("parameters.users[0].apiKeys");
  });

  it("caps any other array at the general limit", () => {
    expect(rejection("delete_users", { parameters: { userIds: Array(MAX_ARRAY_ITEMS).fill("u") } })).toBeUndefined();
    expect(fieldOf(rejection("delete_users", { parameters: { userIds: Array(MAX_ARRAY_ITEMS + 1).fill("u") } }))).toBe("parameters.userIds");
  });

  it("limits a smart contract interface to 400 kB, counted in UTF-8 bytes", () => {
    const at = (s: string) => rejection("create_smart_contract_interface", { parameters: { smartContractInterface: s, label: "abi" } });
    expect(at("a".repeat(MAX_SMART_CONTRACT_INTERFACE_BYTES))).toBeUndefined();
    expect(fieldOf(at("a".repeat(MAX_SMART_CONTRACT_INTERFACE_BYTES + 1)))).toBe("parameters.smartContractInterface");
    // 2-byte characters: half as many fit.
    expect(fieldOf(at("é".repeat(MAX_SMART_CONTRACT_INTERFACE_BYTES / 2 + 1)))).toBe("parameters.smartContractInterface");
    // Other operations' fields of the same name are not this limit's business.
    expect(rejection("create_policy", { parameters: { smartContractInterface: "a".repeat(MAX_SMART_CONTRACT_INTERFACE_BYTES + 1) } })).toBeUndefined();
  });

  it("accepts bodies with no names or arrays at all", () => {
    for (const body of [undefined, null, {}, { organizationId: "o" }, "string", 42]) expect(rejection("whoami", body)).toBeUndefined();
  });
});
