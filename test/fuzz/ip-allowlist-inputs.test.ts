/**
 * IP-allowlist inputs, fuzzed end to end. CIDR candidates come from a seeded generator (valid
 * blocks and mutations of them) and are put at a random position of a list of good rules;
 * ipaddr.js, a parser independent of the emulator's node:net checks, decides which the
 * documented rules accept (an IPv4 block at most /20 wide, an IPv6 block at most /48) and
 * what network each names. An accepted one reads back normalized to that network; a refused
 * one is a 400 rpcStatus whose BadRequest names parameters.rules[i].cidr, and nothing is
 * written. Wrong JSON types, empty lists and long lists are checked the same way.
 */
import { describe, expect, it } from "vitest";
import ipaddr from "ipaddr.js";
import { rawPost, sdkClient, storeCounts, submitBody } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { seededRng, type Rng } from "./prng.js";

const emu = useTestEmulator();
const SEED = Number(process.env.FUZZ_SEED ?? 0x1da110);
const CANDIDATES = Number(process.env.FUZZ_CANDIDATES ?? 300);

/**
 * Whether the emulator's `rule` names the block `expected` (ipaddr.js's normalization): the same
 * network and prefix, in lower case, no group with a leading zero. The text is not compared:
 * ipaddr.js 1.9 does not compress the run of zero groups RFC 5952 (4.2.3) names (the longest,
 * the first of equals).
 */
function sameBlock(rule: string, expected: string): boolean {
  const [a, b] = [ipaddr.parseCIDR(rule), ipaddr.parseCIDR(expected)];
  const sameNetwork = a[0].kind() === b[0].kind() && a[1] === b[1] && a[0].toByteArray().join() === b[0].toByteArray().join();
  return sameNetwork && rule === rule.toLowerCase() && !/(^|[:.])0[0-9a-f]/.test(rule.split("/")[0]!);
}

/**
 * What RFC 4291 (2.2) refuses and ipaddr.js 1.9 takes: a group of more than four hex digits
 * (02e2d), a "::" that stands for no group at all (it stands for one or more), a lone colon at
 * either end (1:2:3:4:5:6:7:8:), and an embedded IPv4 tail that is not plain dotted decimal
 * (::ffff:02.1.1.1, octal to some parsers).
 */
function notRfc4291(address: string): boolean {
  const tail = address.slice(address.lastIndexOf(":") + 1);
  if (tail.includes(".") && !ipaddr.IPv4.isValidFourPartDecimal(tail)) return true;
  if (/^:[^:]|[^:]:$/.test(address)) return true;
  return /(^|:)[0-9a-f]{5,}/i.test(address) || (address.includes("::") && address.split(/::?/).filter(Boolean).length >= 8 && !address.includes("."));
}

/** What the documented rules make of a candidate: the normalized block, or a refusal. */
function oracle(candidate: string): string | undefined {
  // Surrounding blanks are dropped and a prefix may have leading zeros (/024): the emulator's
  // leniency, the service's is UNCONFIRMED. Inner blanks are refused.
  const m = /^([^/]+)\/(\d{1,3})$/.exec(candidate.trim());
  if (!m) return undefined;
  const [address, prefix] = [m[1]!, Number(m[2])];
  if (ipaddr.IPv4.isValidFourPartDecimal(address)) {
    if (prefix < 20 || prefix > 32) return undefined;
    return `${ipaddr.IPv4.networkAddressFromCIDR(`${address}/${prefix}`).toString()}/${prefix}`;
  }
  if (!address.includes("%") && !notRfc4291(address) && ipaddr.IPv6.isValid(address)) {
    if (prefix < 48 || prefix > 128) return undefined;
    // The network as a 128-bit number with its host bits shifted out (ipaddr.js 1.9 computes network addresses for IPv4 only).
    const value = ipaddr.IPv6.parse(address).toByteArray().reduce((n, b) => (n << 8n) | BigInt(b), 0n);
    const network = (value >> BigInt(128 - prefix)) << BigInt(128 - prefix);
    const bytes = Array.from({ length: 16 }, (_, i) => Number((network >> BigInt(8 * (15 - i))) & 0xffn));
    return `${(ipaddr.fromByteArray(bytes) as ipaddr.IPv6).toString()}/${prefix}`;
  }
  return undefined;
}

const hexGroup = (r: Rng) => (r.chance(0.3) ? "0" : r.int(0x10000).toString(16));

function validCandidate(r: Rng): string {
  if (r.chance(0.5)) return `${[0, 0, 0, 0].map(() => r.int(256)).join(".")}/${20 + r.int(13)}`;
  const groups = Array.from({ length: 8 }, () => hexGroup(r));
  let text = groups.join(":");
  if (r.chance(0.5)) text = (ipaddr.IPv6.parse(text) as ipaddr.IPv6).toString();
  if (r.chance(0.2)) text = text.toUpperCase();
  if (r.chance(0.1)) text = `::ffff:${[0, 0, 0, 0].map(() => r.int(256)).join(".")}`;
  return `${text}/${48 + r.int(81)}`;
}

const NOISE = "0123456789abcdefABCDEFgxz:./%- ";

function mutated(r: Rng): string {
  const base = validCandidate(r);
  const [address, prefix] = base.split("/") as [string, string];
  const at = r.int(base.length);
  switch (r.int(12)) {
    case 0:
      return base.slice(0, at) + r.pick([...NOISE]) + base.slice(at + 1);
    case 1:
      return base.slice(0, at) + base.slice(at + 1);
    case 2:
      return base.slice(0, at) + r.pick([...NOISE]) + base.slice(at);
    case 3:
      return address; // no prefix
    case 4:
      return `${address}/${r.pick(["", "-1", "x", "1.5", "24/24", String(129 + r.int(900))])}`;
    case 5:
      return `${address}/${address.includes(":") ? r.int(48) : r.int(20)}`; // wider than allowed
    case 6:
      return `${[0, 0, 0, 0].map(() => r.int(256)).join(".").replace(/^\d+/, String(256 + r.int(744)))}/${prefix}`;
    case 7:
      return `${Array.from({ length: r.pick([3, 5]) }, () => r.int(256)).join(".")}/24`;
    case 8:
      return `${Array.from({ length: r.pick([7, 9]) }, () => hexGroup(r)).join(":")}/64`;
    case 9:
      return `fe80::${hexGroup(r)}::1/64`;
    case 10:
      return `fe80::1%eth${r.int(3)}/64`;
    default:
      return `${address}/${prefix}`.repeat(2);
  }
}

const GOOD = ["198.51.100.0/24", "2001:db8:1::/48"];

type Refusal = { status: number; json: { code?: number; message?: string; details?: { "@type"?: string; fieldViolations?: { field: string; description: string }[] }[] } };

function fieldsOf(r: Refusal): string[] {
  return (r.json.details ?? []).flatMap((d) => (d.fieldViolations ?? []).map((v) => v.field));
}

/** Submits a raw activity; expects a 400 rpcStatus naming `field`, and that nothing was written. */
async function expectRefused(path: string, type: string, parameters: unknown, field: string): Promise<void> {
  const before = storeCounts(emu);
  const r = (await rawPost(emu, `/public/v1/submit/${path}`, submitBody(emu, type, parameters))) as Refusal;
  const what = `${JSON.stringify(parameters).slice(0, 200)} -> ${JSON.stringify(r.json).slice(0, 300)}`;
  expect(r.status, what).toBe(400);
  expect(r.json.code, what).toBe(3);
  expect(typeof r.json.message, what).toBe("string");
  expect(fieldsOf(r), what).toContain(field);
  expect(storeCounts(emu), what).toEqual(before);
}

const setRefused = (parameters: unknown, field: string) => expectRefused("set_ip_allowlist", "ACTIVITY_TYPE_SET_IP_ALLOWLIST", parameters, field);

describe("set_ip_allowlist CIDR candidates, seeded", () => {
  it(`${CANDIDATES} candidates: accepted exactly when ipaddr.js takes them, normalized to its network; refusals name the rule and write nothing`, async () => {
    const r = seededRng(SEED);
    const api = sdkClient(emu);
    let accepted = 0;
    let refused = 0;
    for (let n = 0; n < CANDIDATES; n++) {
      const candidate = r.chance(0.35) ? validCandidate(r) : mutated(r);
      const at = r.int(GOOD.length + 1);
      const cidrs = [...GOOD.slice(0, at), candidate, ...GOOD.slice(at)];
      const expected = oracle(candidate);
      const parameters = { enabled: false, rules: cidrs.map((cidr) => ({ cidr, label: `rule ${cidr}` })) };
      if (expected === undefined) {
        refused++;
        await setRefused(parameters, `parameters.rules[${at}].cidr`);
        continue;
      }
      accepted++;
      await api.setIpAllowlist(parameters);
      const rules = (await api.getIpAllowlist({})).allowlist.rules.map((x) => x.cidr);
      expect(rules.find((rule) => sameBlock(rule, expected)), `${candidate} -> ${rules.join(", ")}`).toBeDefined();
      expect(rules, candidate).toEqual(expect.arrayContaining(GOOD));
      expect(rules.length, candidate).toBe(GOOD.some((g) => sameBlock(g, expected)) ? GOOD.length : GOOD.length + 1);
    }
    // The generator reaches both sides.
    expect(accepted).toBeGreaterThan(CANDIDATES / 5);
    expect(refused).toBeGreaterThan(CANDIDATES / 5);
  });
});

describe("set_ip_allowlist, remove_ip_allowlist and get_ip_allowlist: wrong types", () => {
  it("each refusal names the field and writes nothing", async () => {
    await setRefused({ enabled: false, rules: "198.51.100.0/24" }, "parameters.rules");
    await setRefused({ enabled: false, rules: { cidr: "198.51.100.0/24" } }, "parameters.rules");
    await setRefused({ enabled: false, rules: ["198.51.100.0/24"] }, "parameters.rules[0]");
    await setRefused({ enabled: false, rules: [{ cidr: "198.51.100.0/24" }, {}] }, "parameters.rules[1].cidr");
    await setRefused({ enabled: false, rules: [{ cidr: 3325256704 }] }, "parameters.rules[0].cidr");
    await setRefused({ enabled: false, rules: [{ cidr: ["198.51.100.0/24"] }] }, "parameters.rules[0].cidr");
    await setRefused({ enabled: false, rules: [{ cidr: "" }] }, "parameters.rules[0].cidr");
    await setRefused({ enabled: false, rules: [{ cidr: "198.51.100.0/24", label: 7 }] }, "parameters.rules[0].label");
    await setRefused({ enabled: "false", rules: [] }, "parameters.enabled");
    await setRefused({ enabled: 0, rules: [] }, "parameters.enabled");
    await setRefused({ enabled: false, rules: [], onEvaluationError: 1 }, "parameters.onEvaluationError");
    await setRefused({ enabled: false, rules: [], onEvaluationError: "allow" }, "parameters.onEvaluationError");
    await setRefused({ publicKey: 7, rules: [] }, "parameters.publicKey");
    await expectRefused("remove_ip_allowlist", "ACTIVITY_TYPE_REMOVE_IP_ALLOWLIST", { publicKey: ["02ab"] }, "parameters.publicKey");

    const before = storeCounts(emu);
    const q = (await rawPost(emu, "/public/v1/query/get_ip_allowlist", JSON.stringify({ organizationId: emu.info.organizationId, publicKey: 5 }))) as Refusal;
    expect(q.status).toBe(400);
    expect(fieldsOf(q)).toContain("publicKey");
    expect(storeCounts(emu)).toEqual(before);
  });
});

describe("empty and long lists", () => {
  it("an empty list is a list with no rules, at either scope; no rules at all reads the same", async () => {
    const api = sdkClient(emu);
    await api.setIpAllowlist({ enabled: false, rules: [{ cidr: GOOD[0]! }] });
    await api.setIpAllowlist({ enabled: false, rules: [] });
    expect((await api.getIpAllowlist({})).allowlist).toMatchObject({ enabled: false, rules: [] });
    await api.setIpAllowlist({ enabled: false } as never);
    expect((await api.getIpAllowlist({})).allowlist.rules).toEqual([]);
    await api.setIpAllowlist({ publicKey: emu.info.apiPublicKey!, rules: [] });
    expect((await api.getIpAllowlist({ publicKey: emu.info.apiPublicKey! })).allowlist.rules).toEqual([]);
  });

  it("ten blocks per family are accepted; one more of either family, or a thousand, is refused naming parameters.rules", async () => {
    const v4 = (i: number) => `10.${i >> 4}.${(i & 15) << 4}.0/20`;
    const v6 = (i: number) => `2001:db8:${i.toString(16)}::/48`;
    const api = sdkClient(emu);
    const full = [...Array.from({ length: 10 }, (_, i) => v4(i)), ...Array.from({ length: 10 }, (_, i) => v6(i))];
    await api.setIpAllowlist({ enabled: false, rules: full.map((cidr) => ({ cidr })) });
    expect((await api.getIpAllowlist({})).allowlist.rules.map((x) => x.cidr).sort()).toEqual(full.map((c) => oracle(c)).sort());

    await setRefused({ enabled: false, rules: [...full, v4(10)].map((cidr) => ({ cidr })) }, "parameters.rules");
    await setRefused({ enabled: false, rules: [...full, v6(10)].map((cidr) => ({ cidr })) }, "parameters.rules");
    await setRefused({ enabled: false, rules: Array.from({ length: 1000 }, (_, i) => ({ cidr: i % 2 ? v4(i) : v6(i) })) }, "parameters.rules");
    // The list held before the refusals is still there.
    expect((await api.getIpAllowlist({})).allowlist.rules).toHaveLength(20);
  });

  it("a block repeated a thousand times, in different spellings, is one rule; a 10,000-character CIDR is refused by its index", async () => {
    const api = sdkClient(emu);
    const spellings = ["2001:db8:5::/48", "2001:DB8:5:0::/48", "2001:0db8:0005::1/48", "2001:db8:5:ffff::/48"];
    await api.setIpAllowlist({ enabled: false, rules: Array.from({ length: 1000 }, (_, i) => ({ cidr: spellings[i % spellings.length]!, label: `copy ${i}` })) });
    expect((await api.getIpAllowlist({})).allowlist.rules.map((x) => [x.cidr, x.label])).toEqual([["2001:db8:5::/48", "copy 0"]]);

    await setRefused({ enabled: false, rules: [{ cidr: GOOD[0]! }, { cidr: `${"1".repeat(10_000)}/24` }] }, "parameters.rules[1].cidr");
  });
});
