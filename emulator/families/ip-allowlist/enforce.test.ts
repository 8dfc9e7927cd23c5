import { describe, expect, it } from "vitest";
import type { IpAllowlistRow } from "./repository.js";
import { ipAllowlistRefusal, sourceAddress } from "./enforce.js";

const req = (remoteAddress: string | undefined, forwarded?: string | string[]) => ({
  headers: forwarded === undefined ? {} : { "x-forwarded-for": forwarded },
  socket: { remoteAddress } as never,
});

describe("sourceAddress", () => {
  it("is the TCP peer, IPv4-mapped addresses unmapped, unless a proxy is trusted", () => {
    expect(sourceAddress(req("127.0.0.1", "198.51.100.7"), false)).toEqual({ address: "127.0.0.1" });
    expect(sourceAddress(req("::ffff:127.0.0.1"), false)).toEqual({ address: "127.0.0.1" });
    expect(sourceAddress(req("::1"), false)).toEqual({ address: "::1" });
    expect(sourceAddress(req(undefined), false)).toEqual({ unresolved: expect.stringContaining("no peer address") });
  });

  it("behind a trusted proxy, is the leftmost X-Forwarded-For entry (ports and brackets dropped)", () => {
    expect(sourceAddress(req("127.0.0.1", "198.51.100.7, 10.0.0.1"), true)).toEqual({ address: "198.51.100.7" });
    expect(sourceAddress(req("127.0.0.1", ["198.51.100.7", "10.0.0.1"]), true)).toEqual({ address: "198.51.100.7" });
    expect(sourceAddress(req("127.0.0.1", "198.51.100.7:5678"), true)).toEqual({ address: "198.51.100.7" });
    expect(sourceAddress(req("127.0.0.1", "[2001:db8::7]:443"), true)).toEqual({ address: "2001:db8::7" });
    expect(sourceAddress(req("127.0.0.1", "2001:db8::7"), true)).toEqual({ address: "2001:db8::7" });
    expect(sourceAddress(req("127.0.0.1", "  "), true)).toEqual({ address: "127.0.0.1" });
    expect(sourceAddress(req("127.0.0.1", "unknown, 10.0.0.1"), true)).toEqual({ unresolved: expect.stringContaining('"unknown"') });
  });
});

describe("ipAllowlistRefusal", () => {
  const list = (over: Partial<IpAllowlistRow> = {}): IpAllowlistRow => ({
    orgId: "org-1",
    publicKey: "",
    enabled: true,
    onEvaluationError: "DENY",
    rules: [{ cidr: "203.0.113.0/24", label: "", createdAt: 0 }],
    createdAt: 0,
    updatedAt: 0,
    ...over,
  });

  it("admits an address in the rules and refuses others with 403 REQUEST_NOT_AUTHORIZED", () => {
    expect(ipAllowlistRefusal(list(), { address: "203.0.113.9" })).toBeUndefined();
    const refusal = ipAllowlistRefusal(list(), { address: "127.0.0.1" })!;
    expect(refusal.httpStatus).toBe(403);
    expect(refusal.toJSON()).toMatchObject({ code: 7, details: [{ turnkeyErrorCode: "REQUEST_NOT_AUTHORIZED" }] });
    expect(refusal.message).toBe("request not authorized: source IP address 127.0.0.1 is not in the IP allowlist of organization org-1");
  });

  it("an enabled list with no rules admits nobody", () => {
    expect(ipAllowlistRefusal(list({ rules: [] }), { address: "203.0.113.9" })).toBeDefined();
  });

  it("an unresolvable source follows onEvaluationError", () => {
    expect(ipAllowlistRefusal(list(), { unresolved: "x" })?.message).toMatch(/could not be determined \(x\)/);
    expect(ipAllowlistRefusal(list({ onEvaluationError: "ALLOW" }), { unresolved: "x" })).toBeUndefined();
  });

  it("names the API key of a key-level list", () => {
    expect(ipAllowlistRefusal(list({ publicKey: "02ab", enabled: null }), { address: "127.0.0.1" })?.message).toMatch(/IP allowlist of API key 02ab in organization org-1$/);
  });
});
