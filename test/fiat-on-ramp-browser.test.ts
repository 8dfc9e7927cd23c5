/**
 * The emulated on-ramp checkout in headless Chromium (Debian's, driven by playwright-core):
 * the page init_fiat_on_ramp links to is filled and submitted by a real browser, its own
 * buttons and form encoding; the outcome is read back through @turnkey/sdk-server and, for
 * the delivery, from the local chain with viem.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { createPublicClient, http, parseEther } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import type { RunningEmulator } from "../emulator/index.js";
import { launchChromium, skipBrowserTests } from "./browser/chromium.js";
import { sdkClient, startTestEmulator } from "./support.js";

const TIMEOUT = 60_000;

describe.skipIf(skipBrowserTests())("on-ramp checkout in Chromium", () => {
  let emu: RunningEmulator;
  let browser: Browser;
  beforeAll(async () => {
    [emu, browser] = await Promise.all([startTestEmulator(), launchChromium()]);
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await emu?.stop();
  });

  const fresh = () => privateKeyToAccount(`0x${Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex")}`).address;

  it(
    "the buyer types an amount and pays: COMPLETED, and the ETH is on the chain",
    async () => {
      const to = fresh();
      const c = sdkClient(emu);
      const { onRampUrl, onRampTransactionId } = await c.initFiatOnRamp({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_COINBASE", walletAddress: to, network: "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_ETHEREUM", cryptoCurrencyCode: "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH", fiatCurrencyCode: "FIAT_ON_RAMP_CURRENCY_GBP" });
      const page = await browser.newPage();
      try {
        await page.goto(onRampUrl);
        expect(await page.title()).toBe("Buy ETH with Coinbase");
        expect(await page.locator("dl").innerText()).toContain(to);
        // The browser enforces the required amount before anything is sent.
        await page.getByRole("button", { name: "Pay", exact: true }).click();
        expect(await page.locator("#fiatAmount").evaluate((el) => (el as HTMLInputElement).validity.valueMissing)).toBe(true);
        expect((await c.getOnRampTransactionStatus({ transactionId: onRampTransactionId })).transactionStatus).toBe("PENDING");

        await page.locator("#fiatAmount").fill("150");
        await Promise.all([page.waitForURL((u) => !u.search), page.getByRole("button", { name: "Pay", exact: true }).click()]);
        expect(await page.locator("h1").innerText()).toBe("Purchase completed");
        expect(await page.locator("body").innerText()).toContain("Delivered 0.05 ETH on eip155:1");
      } finally {
        await page.close();
      }
      expect((await c.getOnRampTransactionStatus({ transactionId: onRampTransactionId, refresh: true })).transactionStatus).toBe("COMPLETED");
      const chain = createPublicClient({ transport: http(`${emu.url}/emulator/v1/chains/eip155:1/rpc`) });
      expect(await chain.getBalance({ address: to })).toBe(parseEther("0.05"));
    },
    TIMEOUT,
  );

  it(
    "Cancel ends the checkout CANCELLED without asking for an amount",
    async () => {
      const c = sdkClient(emu);
      const { onRampUrl, onRampTransactionId } = await c.initFiatOnRamp({ onrampProvider: "FIAT_ON_RAMP_PROVIDER_MOONPAY", walletAddress: fresh(), network: "FIAT_ON_RAMP_BLOCKCHAIN_NETWORK_BASE", cryptoCurrencyCode: "FIAT_ON_RAMP_CRYPTO_CURRENCY_ETH", sandboxMode: true });
      const page = await browser.newPage();
      try {
        await page.goto(onRampUrl);
        await Promise.all([page.waitForURL((u) => !u.search), page.getByRole("button", { name: "Cancel" }).click()]);
        expect(await page.locator("h1").innerText()).toBe("Purchase cancelled");
        // Reloading the checkout URL shows the outcome, not the form again.
        await page.goto(onRampUrl);
        expect(await page.locator("form").count()).toBe(0);
      } finally {
        await page.close();
      }
      expect((await c.getOnRampTransactionStatus({ transactionId: onRampTransactionId })).transactionStatus).toBe("CANCELLED");
    },
    TIMEOUT,
  );
});
