/** Per-instance webhook settings (EmulatorOptions.webhooks, the `--webhook-*` CLI flags). */
import type { Runtime } from "../runtime.js";

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

const settings = new WeakMap<Runtime, WebhookSettings>();

export function checkWebhookOptions(o: WebhookOptions): WebhookSettings {
  const delays = o.retryDelaysMs ?? DEFAULT_RETRY_DELAYS_MS;
  if (!Array.isArray(delays) || delays.some((d) => !Number.isSafeInteger(d) || d < 0)) throw new Error("webhooks.retryDelaysMs must be whole, non-negative milliseconds");
  const timeoutMs = o.timeoutMs ?? 10_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0) throw new Error("webhooks.timeoutMs must be a positive whole number of milliseconds");
  const concurrency = o.concurrency ?? 16;
  if (!Number.isSafeInteger(concurrency) || concurrency < 1) throw new Error("webhooks.concurrency must be at least 1");
  return { retryDelaysMs: [...delays], timeoutMs, concurrency, allowHosts: (o.allowHosts ?? []).map((h) => h.toLowerCase()) };
}

export function configureWebhooks(rt: Runtime, o: WebhookOptions): WebhookSettings {
  const s = checkWebhookOptions(o);
  settings.set(rt, s);
  return s;
}

export function webhookSettingsOf(rt: Runtime): WebhookSettings {
  return settings.get(rt) ?? checkWebhookOptions({});
}
