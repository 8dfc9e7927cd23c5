import { describe, expect, it } from "vitest";
import type { OnRampTransactionRow } from "./repository.js";
import { escapeHtml, renderCheckoutPage, renderSettledPage } from "./checkout-page.js";

const row = (over: Partial<OnRampTransactionRow> = {}): OnRampTransactionRow => ({
  id: "9f0abee9-7900-4e7a-9fb6-cabea9d92257",
  orgId: "o",
  activityId: "a",
  provider: "FIAT_ON_RAMP_PROVIDER_COINBASE",
  credentialId: null,
  walletAddress: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
  network: "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE",
  cryptoCurrency: "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH",
  fiatCurrency: null,
  fiatAmount: null,
  paymentMethod: null,
  countryCode: null,
  countrySubdivisionCode: null,
  sandboxMode: false,
  status: "PENDING",
  cryptoAmount: null,
  caip2: null,
  note: null,
  createdAt: 0,
  updatedAt: 0,
  ...over,
});

describe("the emulated checkout page", () => {
  it("escapes every HTML-special character", () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe("&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("asks for the amount when the intent left it open, shows the quote when preset", () => {
    const open = renderCheckoutPage(row(), "/x");
    expect(open).toContain('name="fiatAmount" inputmode="decimal" required');
    const preset = renderCheckoutPage(row({ fiatAmount: "150" }), "/x");
    expect(preset).toContain('value="150" readonly');
    expect(preset).toContain('placeholder="0.05"');
    for (const outcome of ["COMPLETED", "FAILED", "CANCELLED"]) expect(open).toContain(`name="outcome" value="${outcome}"`);
  });

  it("a settled transaction shows its outcome and the note instead of the form", () => {
    const done = renderSettledPage(row({ status: "COMPLETED", cryptoAmount: "1500000000000000000", caip2: "eip155:8453" }));
    expect(done).toContain("Delivered 1.5 ETH on eip155:8453");
    expect(done).not.toContain("<form");
    expect(renderCheckoutPage(row({ status: "FAILED", note: "declined <b>" }), "/x")).toContain("declined &lt;b&gt;");
    expect(renderSettledPage(row({ status: "PROCESSING" }))).toContain("Purchase pending");
  });
});
