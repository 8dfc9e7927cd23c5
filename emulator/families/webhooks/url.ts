/**
 * Which URLs a webhook endpoint may deliver to. The service takes HTTPS URLs whose host is a
 * public destination only: no userinfo, no localhost, private, shared (CGNAT), link-local,
 * multicast or reserved ranges, no cloud metadata endpoints.
 *
 * The emulator's one difference: a loopback host (`localhost`, `*.localhost`, 127.0.0.0/8,
 * `[::1]`) is accepted over http or https, so a test can run its receiver on 127.0.0.1. The
 * real service refuses these (docs/webhooks.md). Hosts named in `allowHosts` (the
 * `--webhook-allow-host` option, e.g. a compose service name) are treated the same way.
 * Host names are not resolved (no DNS offline): a name is judged by its spelling only.
 */
import { isIP } from "node:net";
import { invalidArgument } from "../../core/errors.js";
import { quote } from "../../core/input-error.js";

/** Our own cap (the service documents none). */
export const MAX_URL_LENGTH = 2048;

const METADATA_HOSTS = new Set(["metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal"]);

/** IPv4 dotted quad as a 32-bit number. */
function v4(ip: string): number {
  return ip.split(".").reduce((n, part) => n * 256 + Number(part), 0);
}

const inV4 = (ip: number, cidr: string): boolean => {
  const [base, bits] = cidr.split("/") as [string, string];
  const size = 2 ** (32 - Number(bits));
  const start = v4(base);
  return ip >= start && ip < start + size;
};

/** Everything that is not a public unicast IPv4 destination. */
const NON_PUBLIC_V4 = [
  "0.0.0.0/8", "10.0.0.0/8", "100.64.0.0/10", "127.0.0.0/8", "169.254.0.0/16", "172.16.0.0/12", "192.0.0.0/24", "192.0.2.0/24",
  "192.88.99.0/24", "192.168.0.0/16", "198.18.0.0/15", "198.51.100.0/24", "203.0.113.0/24", "224.0.0.0/4", "240.0.0.0/4",
];

export type HostClass = "loopback" | "public" | "private";

/** Classifies an IP literal (IPv6 without brackets). */
export function classifyIp(ip: string): HostClass {
  if (isIP(ip) === 4) {
    const n = v4(ip);
    if (inV4(n, "127.0.0.0/8")) return "loopback";
    return NON_PUBLIC_V4.some((c) => inV4(n, c)) ? "private" : "public";
  }
  const h = ip.toLowerCase();
  if (h === "::1") return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d, which URL parsing writes as ::ffff:xxxx:xxxx).
  const mapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(h);
  if (mapped) {
    const n = parseInt(mapped[1]!, 16) * 65536 + parseInt(mapped[2]!, 16);
    return classifyIp([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join("."));
  }
  if (h === "::" || h.startsWith("::ffff:") || /^::[0-9a-f]/.test(h)) return "private";
  const first = parseInt(h.split(":")[0] || "0", 16);
  // Global unicast is 2000::/3; documentation (2001:db8::/32) and everything else is not public.
  if (first >= 0x2000 && first <= 0x3fff) return h.startsWith("2001:db8:") || h.startsWith("2001:0db8:") ? "private" : "public";
  return "private"; // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast, ...
}

/** Classifies a URL host (as WHATWG URL gives it: IPv6 in brackets, names lowercased). */
export function classifyHost(hostname: string): HostClass {
  const host = hostname.replace(/\.$/, "");
  if (host.startsWith("[") && host.endsWith("]")) return classifyIp(host.slice(1, -1));
  if (isIP(host) === 4) return classifyIp(host);
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  // A single label (no dot), or a name under a reserved / internal suffix, is never a public destination.
  if (!host.includes(".") || METADATA_HOSTS.has(host)) return "private";
  if (/\.(local|internal|intranet|lan|home\.arpa|corp|private|test|invalid|example|onion)$/.test(host)) return "private";
  return "public";
}

/**
 * Checks an endpoint URL as the service does (plus the loopback exception); throws
 * INVALID_ARGUMENT naming `field`. Returns the URL as given.
 */
export function checkWebhookUrl(value: unknown, field: string, allowHosts: readonly string[] = []): string {
  if (typeof value !== "string" || !value.trim()) throw invalidArgument("webhook url is required", field);
  if (value.length > MAX_URL_LENGTH) throw invalidArgument(`webhook url must be at most ${MAX_URL_LENGTH} characters`, field);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalidArgument(`invalid webhook url: ${quote(value.slice(0, 100))} is not an absolute URL`, field);
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw invalidArgument(`invalid webhook url: scheme ${url.protocol.replace(":", "")} is not supported, use https`, field);
  if (url.username || url.password) throw invalidArgument("invalid webhook url: credentials (userinfo) in the URL are not allowed", field);
  if (!url.hostname) throw invalidArgument("invalid webhook url: a host is required", field);
  const host = url.hostname.toLowerCase();
  const cls = allowHosts.includes(host.replace(/^\[|\]$/g, "")) ? "loopback" : classifyHost(host);
  if (cls === "loopback") return value; // the emulator's exception: a local receiver, http allowed
  if (url.protocol !== "https:") throw invalidArgument("invalid webhook url: only https URLs are allowed", field);
  if (cls === "private") throw invalidArgument(`invalid webhook url: host ${host} is not a public destination (private, link-local, reserved or metadata addresses are refused)`, field);
  return value;
}
