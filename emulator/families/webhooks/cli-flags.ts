/**
 * The webhook flags of `emulator start`: what `startEmulator({ webhooks })` takes, from the
 * command line (declared, with their --help lines, in cli-start-options.ts). A bad value is an
 * Error whose message names the flag.
 *
 *   --webhook-allow-host HOST      a host name or IP literal accepted over http like localhost
 *                                  (e.g. a compose service); repeatable
 *   --webhook-retry-delays LIST    emulated-time delays before each retry, in ms, comma-separated
 *                                  (`none`: no retries)
 */
import { canonicalAllowHost, type WebhookOptions } from "./settings.js";

export type WebhookFlags = { "webhook-allow-host"?: string[]; "webhook-retry-delays"?: string };

const MAX_DELAYS = 100;

export function webhookOptionsFromFlags(flags: WebhookFlags): WebhookOptions {
  const options: WebhookOptions = {};
  if (flags["webhook-allow-host"]?.length) options.allowHosts = flags["webhook-allow-host"].map(allowedHost);
  if (flags["webhook-retry-delays"] !== undefined) options.retryDelaysMs = retryDelays(flags["webhook-retry-delays"]);
  return options;
}

/** The flag's value, checked and canonicalised by the emulator's own setting (settings.ts); errors name the flag. */
function allowedHost(raw: string): string {
  try {
    return canonicalAllowHost(raw);
  } catch (e) {
    throw new Error(`--webhook-allow-host ${JSON.stringify(raw)}: ${(e as Error).message}`, { cause: e });
  }
}

function retryDelays(raw: string): number[] {
  const text = raw.trim();
  if (text.toLowerCase() === "none") return [];
  const parts = text.split(",").map((p) => p.trim());
  if (parts.length > MAX_DELAYS) throw new Error(`--webhook-retry-delays: at most ${MAX_DELAYS} delays, got ${parts.length}`);
  return parts.map((p, i) => {
    if (!/^\d+$/.test(p) || !Number.isSafeInteger(Number(p))) {
      throw new Error(`--webhook-retry-delays: delay ${i + 1} (${JSON.stringify(p)}) is not a whole number of milliseconds; give e.g. 5000,30000 or none`);
    }
    return Number(p);
  });
}
