/**
 * The URL init_fiat_on_ramp returns: the emulated provider's checkout page for one on-ramp
 * transaction, served by the emulator itself (onramp/routes.ts). Its query carries what the
 * intent preset, as a provider widget URL does (the page itself reads the stored transaction,
 * so editing the query changes nothing that is delivered).
 */
import type { OnRampTransactionRow } from "./repository.js";
import { shortName } from "./catalog.js";

export const CHECKOUT_PATH = "/emulator/v1/onramp/checkout";

export function checkoutUrl(baseUrl: string, t: OnRampTransactionRow, publishableApiKey?: string): string {
  const u = new URL(`${CHECKOUT_PATH}/${t.id}`, baseUrl || "http://127.0.0.1");
  const q = u.searchParams;
  q.set("provider", shortName(t.provider).toLowerCase());
  if (publishableApiKey) q.set("apiKey", publishableApiKey);
  q.set("walletAddress", t.walletAddress);
  q.set("network", shortName(t.network).toLowerCase());
  q.set("cryptoCurrency", shortName(t.cryptoCurrency).toLowerCase());
  if (t.fiatCurrency) q.set("fiatCurrency", shortName(t.fiatCurrency).toLowerCase());
  if (t.fiatAmount) q.set("fiatAmount", t.fiatAmount);
  if (t.paymentMethod) q.set("paymentMethod", shortName(t.paymentMethod).toLowerCase());
  if (t.sandboxMode) q.set("sandbox", "true");
  return u.toString();
}
