/**
 * CIDR rules of an IP allowlist, as the service documents them: IPv4 and IPv6 blocks no wider
 * than /20 and /48, normalized on submission (192.168.1.100/24 -> 192.168.1.0/24), duplicates
 * dropped (the first occurrence and its label kept), at most 10 IPv4 and 10 IPv6 blocks.
 * Addresses are validated by node:net and membership is node:net's BlockList; only the masking
 * of host bits is done here, on an address node:net has already accepted.
 */
import { BlockList, isIPv4, isIPv6 } from "node:net";
import { InputError, quote } from "../../core/input-error.js";

export type IpFamily = "ipv4" | "ipv6";
export type NormalizedCidr = { cidr: string; family: IpFamily; address: string; prefix: number };

/** The widest block a rule may name (the smallest prefix length), per family. */
export const WIDEST_PREFIX: Record<IpFamily, number> = { ipv4: 20, ipv6: 48 };
/** Rules per family in one allowlist. */
export const MAX_RULES_PER_FAMILY = 10;

const BITS: Record<IpFamily, number> = { ipv4: 32, ipv6: 128 };

function ipv4Bytes(address: string): number[] {
  return address.split(".").map(Number);
}

/** The 16 bytes of an address node:net accepted as IPv6 (with `::` and an IPv4 tail expanded). */
function ipv6Bytes(address: string): number[] {
  let text = address;
  let tail: number[] = [];
  const lastColon = text.lastIndexOf(":");
  if (text.slice(lastColon + 1).includes(".")) {
    tail = ipv4Bytes(text.slice(lastColon + 1));
    text = text.slice(0, lastColon + 1) + "0:0";
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const groups = (s: string) => (s ? s.split(":") : []);
  const left = groups(head);
  const right = rest === undefined ? [] : groups(rest);
  const all = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill("0"), ...right];
  const bytes = all.flatMap((g) => {
    const n = parseInt(g, 16);
    return [n >> 8, n & 0xff];
  });
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

function formatIpv6(bytes: number[]): string {
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i]! << 8) | bytes[i + 1]!).toString(16));
  // The WHATWG URL serializer prints the RFC 5952 compressed form.
  return new URL(`http://[${groups.join(":")}]/`).hostname.slice(1, -1);
}

function mask(bytes: number[], prefix: number): number[] {
  return bytes.map((b, i) => {
    const keep = Math.max(0, Math.min(8, prefix - i * 8));
    return b & ((0xff << (8 - keep)) & 0xff);
  });
}

/** Parses and normalizes one CIDR block; InputError (relative to the value) when it is not one the service accepts. */
export function normalizeCidr(input: string): NormalizedCidr {
  const text = input.trim();
  const slash = text.indexOf("/");
  if (slash < 0) throw new InputError(`invalid CIDR ${quote(input)}: expected address/prefix, e.g. 192.168.1.0/24 or 2001:db8::/48`);
  const address = text.slice(0, slash);
  const prefixText = text.slice(slash + 1);
  const family: IpFamily | undefined = isIPv4(address) ? "ipv4" : isIPv6(address) && !address.includes("%") ? "ipv6" : undefined;
  if (!family) throw new InputError(`invalid CIDR ${quote(input)}: ${quote(address)} is not an IPv4 or IPv6 address`);
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > BITS[family])
    throw new InputError(`invalid CIDR ${quote(input)}: the prefix length must be a whole number from 0 to ${BITS[family]}`);
  const prefix = Number(prefixText);
  if (prefix < WIDEST_PREFIX[family])
    throw new InputError(`invalid CIDR ${quote(input)}: ${family === "ipv4" ? "IPv4" : "IPv6"} blocks may be at most /${WIDEST_PREFIX[family]} wide`);
  const network = family === "ipv4" ? mask(ipv4Bytes(address), prefix).join(".") : formatIpv6(mask(ipv6Bytes(address), prefix));
  return { cidr: `${network}/${prefix}`, family, address: network, prefix };
}

export type RuleInput = { cidr: string; label?: string };

/**
 * Normalizes a submitted rule list: each CIDR normalized, duplicates after normalization dropped
 * (first occurrence and its label kept), per-family caps checked. InputError paths are relative
 * to the list (`[2].cidr`).
 */
export function normalizeRules(rules: RuleInput[]): { cidr: string; label: string; family: IpFamily }[] {
  const out: { cidr: string; label: string; family: IpFamily }[] = [];
  const seen = new Set<string>();
  rules.forEach((r, i) => {
    let n: NormalizedCidr;
    try {
      n = normalizeCidr(r.cidr);
    } catch (e) {
      if (e instanceof InputError) throw new InputError(`rule ${i}: ${e.message}`, `[${i}].cidr`);
      throw e;
    }
    if (seen.has(n.cidr)) return;
    seen.add(n.cidr);
    out.push({ cidr: n.cidr, label: r.label ?? "", family: n.family });
  });
  for (const family of ["ipv4", "ipv6"] as const) {
    const count = out.filter((r) => r.family === family).length;
    if (count > MAX_RULES_PER_FAMILY)
      throw new InputError(`an allowlist holds at most ${MAX_RULES_PER_FAMILY} ${family === "ipv4" ? "IPv4" : "IPv6"} CIDR blocks, got ${count}`);
  }
  return out;
}

/** The address as node:net names it: an IPv4-mapped IPv6 address (::ffff:a.b.c.d) becomes a.b.c.d. */
export function canonicalAddress(address: string): { address: string; family: IpFamily } | undefined {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address);
  const a = mapped ? mapped[1]! : address;
  if (isIPv4(a)) return { address: a, family: "ipv4" };
  if (isIPv6(a)) return { address: a, family: "ipv6" };
  return undefined;
}

const compiled = new Map<string, BlockList>();
const MAX_COMPILED = 256;

/** The BlockList of a rule set, built once per distinct set (normalizing runs only then). */
function blockListOf(cidrs: readonly string[]): BlockList {
  const key = cidrs.join(",");
  let list = compiled.get(key);
  if (!list) {
    list = new BlockList();
    for (const c of cidrs) {
      const n = normalizeCidr(c);
      list.addSubnet(n.address, n.prefix, n.family);
    }
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    compiled.set(key, list);
  }
  return list;
}

/** Whether `address` lies in one of the CIDR blocks. */
export function addressAllowed(cidrs: readonly string[], address: string): boolean {
  const ip = canonicalAddress(address);
  if (!ip) return false;
  return blockListOf(cidrs).check(ip.address, ip.family);
}
