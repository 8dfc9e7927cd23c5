/**
 * The emulated provider's checkout page (HTML, no script): what is being bought, where it is
 * delivered, and a form whose buttons settle the checkout (POST to the same URL). After
 * settlement the same URL shows the outcome. Every value is HTML-escaped.
 */
import type { OnRampTransactionRow } from "./repository.js";
import { formatUnits, parseFiatAmount, quote } from "./amounts.js";
import { COINS, NETWORKS, PROVIDER_LABEL, shortName, type CryptoCurrency, type Network, type Provider } from "./catalog.js";
import { reportedStatus } from "./settle.js";

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:2rem auto;padding:0 1rem}dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem}dt{color:#555}dd{margin:0;word-break:break-all}
label{display:block;margin:.75rem 0 .25rem}input{width:100%;padding:.4rem;box-sizing:border-box}.buttons{display:flex;gap:.5rem;margin-top:1rem}button{padding:.5rem 1rem}.note{color:#555}</style>
</head><body>
${body}
<p class="note">Emulated checkout served by the Turnkey emulator: no payment is taken.</p>
</body></html>
`;
}

function facts(t: OnRampTransactionRow): string {
  const coin = COINS[t.cryptoCurrency as CryptoCurrency];
  const rows: [string, string][] = [
    ["Provider", `${PROVIDER_LABEL[t.provider as Provider]}${t.sandboxMode ? " (sandbox)" : ""}`],
    ["Buying", coin.symbol],
    ["Network", NETWORKS[t.network as Network].label],
    ["Deliver to", t.walletAddress],
    ["Pay with", t.fiatCurrency ? shortName(t.fiatCurrency) : "USD"],
  ];
  if (t.paymentMethod) rows.push(["Payment method", shortName(t.paymentMethod)]);
  rows.push(["Transaction", t.id]);
  return `<dl>${rows.map(([k, v]) => `<dt>${escapeHtml(k)}</dt><dd>${escapeHtml(v)}</dd>`).join("")}</dl>`;
}

export function renderCheckoutPage(t: OnRampTransactionRow, action: string): string {
  const coin = COINS[t.cryptoCurrency as CryptoCurrency];
  const title = `Buy ${coin.symbol} with ${PROVIDER_LABEL[t.provider as Provider]}`;
  if (t.status !== "PENDING") return renderSettledPage(t);
  let quoted = "";
  if (t.fiatAmount) quoted = formatUnits(quote(parseFiatAmount(t.fiatAmount), t.cryptoCurrency as CryptoCurrency), coin.decimals);
  const fiat = t.fiatAmount
    ? `<label for="fiatAmount">Amount</label><input id="fiatAmount" name="fiatAmount" value="${escapeHtml(t.fiatAmount)}" readonly>`
    : `<label for="fiatAmount">Amount (greater than 20)</label><input id="fiatAmount" name="fiatAmount" inputmode="decimal" required>`;
  return page(
    title,
    `<h1>${escapeHtml(title)}</h1>
${facts(t)}
<form method="post" action="${escapeHtml(action)}">
${fiat}
<label for="cryptoAmount">${escapeHtml(coin.symbol)} to receive (blank: the emulated quote${quoted ? `, ${escapeHtml(quoted)}` : ""})</label>
<input id="cryptoAmount" name="cryptoAmount" inputmode="decimal" placeholder="${escapeHtml(quoted)}">
<div class="buttons">
<button type="submit" name="outcome" value="COMPLETED">Pay</button>
<button type="submit" name="outcome" value="FAILED" formnovalidate>Decline payment</button>
<button type="submit" name="outcome" value="CANCELLED" formnovalidate>Cancel</button>
</div>
</form>`,
  );
}

export function renderSettledPage(t: OnRampTransactionRow): string {
  const coin = COINS[t.cryptoCurrency as CryptoCurrency];
  const status = reportedStatus(t.status);
  const lines: string[] = [`<h1>Purchase ${escapeHtml(status.toLowerCase())}</h1>`, facts(t)];
  if (t.cryptoAmount && t.status === "COMPLETED") lines.push(`<p>Delivered ${escapeHtml(formatUnits(BigInt(t.cryptoAmount), coin.decimals))} ${escapeHtml(coin.symbol)}${t.caip2 ? ` on ${escapeHtml(t.caip2)}` : ""}.</p>`);
  if (t.note) lines.push(`<p class="note">${escapeHtml(t.note)}</p>`);
  return page(`On-ramp ${status}`, lines.join("\n"));
}
