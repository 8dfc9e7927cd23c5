import { describe, expect, it } from "vitest";
import { isInputError } from "../../core/input-error.js";
import { addressAllowed, canonicalAddress, normalizeCidr, normalizeRules } from "./cidr.js";

describe("normalizeCidr", () => {
  it("masks host bits, as the service documents (192.168.1.100/24 -> 192.168.1.0/24)", () => {
    expect(normalizeCidr("192.168.1.100/24").cidr).toBe("192.168.1.0/24");
    expect(normalizeCidr("10.0.15.255/20").cidr).toBe("10.0.0.0/20");
    expect(normalizeCidr("203.0.113.42/32").cidr).toBe("203.0.113.42/32");
    expect(normalizeCidr(" 10.1.2.3/23 ").cidr).toBe("10.1.2.0/23");
  });

  it("prints IPv6 blocks in the RFC 5952 compressed form", () => {
    expect(normalizeCidr("2001:db8::/48").cidr).toBe("2001:db8::/48");
    expect(normalizeCidr("2001:0DB8:0000:1234:5678::1/48").cidr).toBe("2001:db8::/48");
    expect(normalizeCidr("2001:db8:0:1234:5678::1/64").cidr).toBe("2001:db8:0:1234::/64");
    expect(normalizeCidr("::1/128").cidr).toBe("::1/128");
    expect(normalizeCidr("::ffff:192.0.2.1/128").cidr).toBe("::ffff:c000:201/128");
    expect(normalizeCidr("fe80:1:2:3:4:5:6:7/127").cidr).toBe("fe80:1:2:3:4:5:6:6/127");
  });

  it.each([
    ["10.0.0.0", /expected address\/prefix/],
    ["10.0.0.0/19", /at most \/20 wide/],
    ["0.0.0.0/0", /at most \/20 wide/],
    ["2001:db8::/47", /at most \/48 wide/],
    ["10.0.0.0/33", /prefix length/],
    ["10.0.0.0/-1", /prefix length/],
    ["10.0.0.0/2x", /prefix length/],
    ["::1/129", /prefix length/],
    ["10.0.0.256/24", /not an IPv4 or IPv6 address/],
    ["fe80::1%eth0/64", /not an IPv4 or IPv6 address/],
    ["example.com/24", /not an IPv4 or IPv6 address/],
    ["/24", /not an IPv4 or IPv6 address/],
  ])("refuses %s", (cidr, message) => {
    let error: unknown;
    try {
      normalizeCidr(cidr);
    } catch (e) {
      error = e;
    }
    expect(isInputError(error)).toBe(true);
    expect((error as Error).message).toMatch(message);
  });
});

describe("normalizeRules", () => {
  it("keeps the first occurrence (and its label) of blocks equal after normalization", () => {
    expect(normalizeRules([{ cidr: "192.168.1.100/24", label: "first" }, { cidr: "192.168.1.0/24", label: "second" }, { cidr: "10.0.0.0/20" }])).toEqual([
      { cidr: "192.168.1.0/24", label: "first", family: "ipv4" },
      { cidr: "10.0.0.0/20", label: "", family: "ipv4" },
    ]);
  });

  it("names the index of a bad rule", () => {
    try {
      normalizeRules([{ cidr: "10.0.0.0/24" }, { cidr: "nope/24" }]);
      expect.unreachable();
    } catch (e) {
      expect(isInputError(e) && e.path).toBe("[1].cidr");
      expect((e as Error).message).toMatch(/^rule 1: invalid CIDR "nope\/24"/);
    }
  });

  it("allows 10 blocks per family and refuses the 11th (duplicates do not count)", () => {
    const v4 = Array.from({ length: 10 }, (_, i) => ({ cidr: `10.${i}.0.0/24` }));
    const v6 = Array.from({ length: 10 }, (_, i) => ({ cidr: `2001:db8:${i}::/48` }));
    expect(normalizeRules([...v4, ...v6, { cidr: "10.0.0.1/24" }])).toHaveLength(20);
    expect(() => normalizeRules([...v4, { cidr: "10.10.0.0/24" }])).toThrow(/at most 10 IPv4/);
    expect(() => normalizeRules([...v6, { cidr: "2001:db8:10::/48" }])).toThrow(/at most 10 IPv6/);
    expect(normalizeRules([])).toEqual([]);
  });
});

describe("addressAllowed (node:net BlockList)", () => {
  it("matches addresses inside the blocks and nothing else", () => {
    const rules = ["203.0.113.0/24", "2001:db8::/48"];
    expect(addressAllowed(rules, "203.0.113.7")).toBe(true);
    expect(addressAllowed(rules, "203.0.114.7")).toBe(false);
    expect(addressAllowed(rules, "127.0.0.1")).toBe(false);
    expect(addressAllowed(rules, "2001:db8:0:ffff::1")).toBe(true);
    expect(addressAllowed(rules, "2001:db9::1")).toBe(false);
    expect(addressAllowed(rules, "::1")).toBe(false);
    expect(addressAllowed([], "127.0.0.1")).toBe(false);
    expect(addressAllowed(rules, "not an address")).toBe(false);
  });

  it("treats an IPv4-mapped IPv6 peer (a dual-stack socket's view of 127.0.0.1) as the IPv4 address", () => {
    expect(canonicalAddress("::ffff:127.0.0.1")).toEqual({ address: "127.0.0.1", family: "ipv4" });
    expect(addressAllowed(["127.0.0.0/24"], "::ffff:127.0.0.1")).toBe(true);
    expect(addressAllowed(["::1/128"], "::1")).toBe(true);
  });
});
