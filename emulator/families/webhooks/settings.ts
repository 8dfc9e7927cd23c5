/** Per-instance webhook settings (EmulatorOptions.webhooks, the `--webhook-*` CLI flags). */
import type { Runtime } from "../../core/runtime.js";

export type WebhookOptions = {
  /**
   * Emulated-time delays (ms) before each retry of a delivery that met a network error or a
   * 5xx; the number of attempts is one more than the number of delays. Default: 5 s, 30 s,
   * 2 min, 10 min, 30 min (6 attempts). Retries follow the emulated clock: advancing it
   * (POST /emulator/v1/clock) makes a waiting retry due at once.
   */
  retryDelaysMs?: number[];
  /** Wall-clock limit of one attempt (ms, default 10 000); exceeding it counts as a network error. */
  timeoutMs?: number;
  /** Deliveries in flight at once (default 16). */
  concurrency?: number;
  /** Host names (or IP literals) accepted over http like localhost, e.g. a compose service. */
  allowHosts?: string[];
};

export type WebhookSettings = Required<WebhookOptions>;

export const DEFAULT_RETRY_DELAYS_MS = [5_000, 30_000, 120_000, 600_000, 1_800_000];

export function checkWebhookOptions(o: WebhookOptions): WebhookSettings {
  const delays = o.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (!Array.isArray(delays) || delays.some((d) => !Number.isSafeInteger(d) || d < 0)) throw new Error("webhooks.retryDelaysMs must be whole, non-negative milliseconds");
  const timeoutMs = o.timeoutMs ?? 10_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw new Error("webhooks.timeoutMs must be a positive whole number of milliseconds");
  const concurrency = o.concurrency ?? 16;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new Error("webhooks.concurrency must be at least 1");
  const hosts = o.allowHosts ?? [];
  if (!Array.isArray(hosts)) throw new Error("webhooks.allowHosts must be a list of host names or IP addresses");
  const allowHosts = hosts.map((h: unknown, i) => {
    try {
      return canonicalAllowHost(h);
    } catch (e) {
      throw new Error(`webhooks.allowHosts[${i}] ${JSON.stringify(h)}: ${(e as Error).message}`, { cause: e });
    }
  });
  return { retryDelaysMs: [...delays], timeoutMs, concurrency, allowHosts };
}

/**
 * An allowed host in the form the URL check compares with: a DNS name lowercased, an IP literal
 * as the URL parser writes it (IPv6 without brackets, IPv4 without leading zeros). Throws an
 * Error saying what is wrong when it is not a bare host (no scheme, port or path).
 */
export function canonicalAllowHost(raw: unknown): string {
  if (typeof raw !== "string") throw new Error("a host name or IP address (a string) is needed");
  const host = raw.trim().toLowerCase();
  if (!host) throw new Error("a host name or IP address is needed");
  const bare = host.replace(/^\[(.*)\]$/, "$1");
  const shape = "give a bare host name or IP address (letters, digits, hyphens and dots; no scheme, port or path)";
  if (/[/@?#]/.test(bare) || (bare.split(":").length - 1 === 1 && !host.startsWith("["))) throw new Error(shape);
  if (bare.includes(":")) {
    // IPv6: the URL parser is the judge of the literal.
    let parsed: URL;
    try {
      parsed = new URL(`http://[${bare}]/`);
    } catch {
      throw new Error("not a valid IPv6 address");
    }
    return parsed.hostname.slice(1, -1);
  }
  if (!/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(bare) || bare.length > 253) {
    throw new Error(shape);
  }
  // The form the URL check compares with (e.g. an IPv4 literal written with leading zeros).
  return new URL(`http://${bare}/`).hostname;
}

/** The instance's settings (`rt.webhooks.settings`), the defaults before webhooks start. */
export function webhookSettingsOf(rt: Runtime): WebhookSettings {
  return rt.families.webhooks?.settings ?? checkWebhookOptions({});
}
