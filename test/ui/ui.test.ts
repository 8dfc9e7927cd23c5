/**
 * The web UI in headless Chromium (Debian's, driven by playwright-core): one browser and one
 * page for the file. What the page shows is checked against independent sources (viem's
 * derivation, the SDK reading state back, the OTP verifying through the SDK), and what it
 * does (a vote) is checked through the SDK. A failing test leaves a screenshot in
 * test-results/.
 */
import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from "vitest";
import type { Browser, Page } from "playwright-core";
import { mnemonicToAccount } from "viem/accounts";
import { createPublicClient, formatEther, formatUnits, http, parseAbi } from "viem";
import { encryptOtpCodeToBundle, generateP256KeyPair } from "@turnkey/crypto";
import type { RunningEmulator } from "../../emulator/index.js";
import { launchChromium, skipBrowserTests } from "../browser/chromium.js";
import { newP256KeyPair, sdkClient, startTestEmulator } from "../support.js";
import { uiFixture, VAULT, type VaultKeys } from "./fixture.js";
import { Receiver } from "../webhooks/receiver.js";

const TIMEOUT = 60_000;

describe.skipIf(skipBrowserTests())("emulator UI in Chromium", () => {
  let emu: RunningEmulator;
  let keys: VaultKeys;
  let browser: Browser;
  let page: Page;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    const f = uiFixture();
    keys = f.keys;
    [emu, browser] = await Promise.all([startTestEmulator({ fixtures: f.fixture }), launchChromium()]);
    page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    page.on("pageerror", (e) => pageErrors.push(e.message));
    page.setDefaultTimeout(10_000);
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await emu?.stop();
  });

  /** On failure: a screenshot of the page as it was, named after the test. */
  function screenshotOnFailure(name: string) {
    onTestFailed(async () => {
      mkdirSync("test-results", { recursive: true });
      await page.screenshot({ path: `test-results/ui-${name}.png`, fullPage: true }).catch(() => undefined);
    });
  }

  const open = (hash: string) => page.goto(`${emu.url}/emulator/ui/#${hash}`);
  const vault = (k: keyof VaultKeys) => sdkClient(emu, keys[k], VAULT.organizationId);

  it(
    "shows the fixture organizations and the dev wallet's addresses",
    async () => {
      screenshotOnFailure("fixture");
      await open("organizations");
      const tree = page.locator(".org-tree");
      await expect.poll(() => tree.textContent()).toContain("Emulator Dev Organization");
      expect(await tree.textContent()).toContain("Vault");
      await expect.poll(() => page.locator(".org-detail h2").textContent()).toContain("Emulator Dev Organization");
      expect(await page.locator(".org-detail").textContent()).toContain(emu.info.rootUserId.slice(0, 8));

      await page.click('nav a[data-tab="wallets"]');
      const wallet = page.locator(`.wallet[data-wallet="${emu.info.walletId}"]`);
      await wallet.waitFor();
      const mnemonic = "test test test test test test test test test test test junk";
      for (const index of [0, 1, 2]) expect(await wallet.textContent()).toContain(mnemonicToAccount(mnemonic, { addressIndex: index }).address);
      expect(await wallet.textContent()).toContain("m/44'/60'/0'/0/0");
      expect(await page.locator(".live").textContent()).toContain("live");
    },
    TIMEOUT,
  );

  it(
    "shows balances from a local chain as viem reads them",
    async () => {
      screenshotOnFailure("balances");
      await open(`wallets/${emu.info.organizationId}`);
      const chain = emu.info.chains.find((c) => c.caip2 === "eip155:1")!;
      await page.locator('select[name="chain"] option[value="eip155:1"]').waitFor({ state: "attached" });
      await page.locator('select[name="chain"]').selectOption("eip155:1");
      const address = mnemonicToAccount("test test test test test test test test test test test junk").address;
      const cell = page.locator(`.wallet[data-wallet="${emu.info.walletId}"] tr`, { hasText: address }).locator(".balance");
      await expect.poll(() => cell.textContent(), { timeout: 20_000 }).toMatch(/ETH$/);
      const onChain = await createPublicClient({ transport: http(chain.rpcUrl) }).getBalance({ address });
      expect(onChain).toBeGreaterThan(0n);
      expect(await cell.textContent()).toBe(`${formatEther(onChain)} ETH`);
    },
    TIMEOUT,
  );

  it(
    "shows the tokens a swap moved, as viem reads them",
    async () => {
      screenshotOnFailure("swap-tokens");
      const caip2 = "eip155:1";
      const address = mnemonicToAccount("test test test test test test test test test test test junk").address;
      // docs/networks.md: the local TUSD and WETH on every local chain.
      const tusd = "0x5F23465BAFf78DC25B29B23D69A5284e8160429D";
      const weth = "0x136E2680e3D1b7Bb12239A17843c7388ddF31ff4";
      const [inputToken, outputToken] = [`${caip2}/erc20:${tusd.toLowerCase()}`, `${caip2}/erc20:${weth.toLowerCase()}`];
      const client = sdkClient(emu);
      const { quotes } = await client.createSwapQuote({ signWith: address, inputToken, outputToken, inputAmount: "1500000000" });
      const q = quotes[0]!;
      const { swapRequestId } = await client.executeSwap({ quoteId: q.quoteId, inputToken, outputToken, inputAmount: "1500000000", quotedOutputAmount: q.outputAmount, minOutputAmount: q.minOutputAmount, sponsor: false });
      await expect.poll(async () => (await client.getSwapStatus({ swapRequestId })).status, { timeout: 10_000 }).toBe("COMPLETED");

      await open(`wallets/${emu.info.organizationId}`);
      await page.locator(`select[name="chain"] option[value="${caip2}"]`).waitFor({ state: "attached" });
      await page.locator('select[name="chain"]').selectOption(caip2);
      const cell = page.locator(`.wallet[data-wallet="${emu.info.walletId}"] tr`, { hasText: address }).locator(".balance");
      await expect.poll(() => cell.textContent(), { timeout: 20_000 }).toContain("WETH");
      const reader = createPublicClient({ transport: http(emu.info.chains.find((c) => c.caip2 === caip2)!.rpcUrl) });
      const abi = parseAbi(["function balanceOf(address) view returns (uint256)"]);
      const [tusdHeld, wethHeld] = await Promise.all([tusd, weth].map((token) => reader.readContract({ address: token as `0x${string}`, abi, functionName: "balanceOf", args: [address] })));
      const shown = await cell.textContent();
      expect(shown).toContain(`${formatUnits(tusdHeld!, 6)} TUSD`);
      expect(shown).toContain(`${formatEther(wethHeld!)} WETH`);
    },
    TIMEOUT,
  );

  it(
    "shows a sub-organization and a user created through the SDK without a reload",
    async () => {
      screenshotOnFailure("live");
      await open(`organizations/${emu.info.organizationId}`);
      await page.locator(".org-detail h2").waitFor();
      const marker = await page.evaluate(() => ((window as any).__sameDocument = Math.random()));
      const sub = await sdkClient(emu).createSubOrganization({
        subOrganizationName: "Browser-made sub-org",
        rootQuorumThreshold: 1,
        rootUsers: [{ userName: "sub root", userEmail: "sub-root@example.com", apiKeys: [], authenticators: [], oauthProviders: [] }],
      });
      await page.locator(`.org-tree a[data-org="${sub.subOrganizationId}"]`).waitFor();
      expect(await page.locator(`.org-tree a[data-org="${sub.subOrganizationId}"]`).textContent()).toContain("Browser-made sub-org");

      await sdkClient(emu).createUsers({ users: [{ userName: "Live Larry", userEmail: "larry@example.com", apiKeys: [{ apiKeyName: "k", publicKey: newP256KeyPair().publicKey, curveType: "API_KEY_CURVE_P256" }], authenticators: [], oauthProviders: [], userTags: [] }] });
      await expect.poll(() => page.locator(".org-detail").textContent()).toContain("Live Larry");
      expect(await page.locator(".org-detail").textContent()).toContain("larry@example.com");
      // The same document throughout: updates came by the event stream, not a navigation.
      expect(await page.evaluate(() => (window as any).__sameDocument)).toBe(marker);
    },
    TIMEOUT,
  );

  it(
    "shows an OTP code in the mailbox that then verifies through the SDK",
    async () => {
      screenshotOnFailure("mailbox");
      const contact = "ui-otp@example.com";
      await open("mailbox");
      await page.locator(".mailbox").waitFor();
      const { otpId, otpEncryptionTargetBundle } = await sdkClient(emu).initOtp({ otpType: "OTP_TYPE_EMAIL", contact, appName: "UI test" } as never);
      await sdkClient(emu).initOtp({ otpType: "OTP_TYPE_EMAIL", contact: "someone-else@example.com", appName: "UI test" } as never);
      // Only this contact's messages, once chosen.
      await page.locator(`select[aria-label="contact"] option[value="${contact}"]`).waitFor({ state: "attached" });
      await page.locator('select[aria-label="contact"]').selectOption(contact);
      await expect.poll(() => page.locator(".msg").count()).toBe(1);
      const message = page.locator(`.msg[data-contact="${contact}"]`).first();
      await message.waitFor();
      const code = (await message.locator(".otp").textContent())!.trim();
      expect(code).toMatch(/^[0-9A-Z]{6,9}$/);
      expect(await message.textContent()).toContain(otpId);

      const bundle = await encryptOtpCodeToBundle(code, otpEncryptionTargetBundle, generateP256KeyPair().publicKey, emu.info.tlsFetcherPublicKey);
      const { verificationToken } = await sdkClient(emu).verifyOtp({ otpId, encryptedOtpBundle: bundle });
      expect(verificationToken.split(".")).toHaveLength(3);
    },
    TIMEOUT,
  );

  it(
    "approves a 2-of-2 root-quorum activity from the UI; the SDK sees it COMPLETED",
    async () => {
      screenshotOnFailure("approve");
      const proposed = await vault("alice").createWallet({ walletName: "approved in the browser", accounts: [] });
      expect(proposed.activity.status).toBe("ACTIVITY_STATUS_CONSENSUS_NEEDED");
      await open(`activities/${proposed.activity.id}`);
      const form = page.locator(".vote");
      await form.waitFor();
      await form.locator('select[name="voter"]').selectOption(VAULT.bob);
      await form.locator("button", { hasText: "Approve" }).click();
      await expect.poll(() => page.locator(".vote-result").textContent()).toContain("COMPLETED");

      const seen = (await vault("alice").getActivity({ activityId: proposed.activity.id })).activity;
      expect(seen.status).toBe("ACTIVITY_STATUS_COMPLETED");
      expect(seen.votes.map((v) => v.userId)).toEqual([VAULT.alice, VAULT.bob]);
      expect((await vault("bob").getWallets({})).wallets.map((w) => w.walletName)).toContain("approved in the browser");
      // The detail follows: no vote form on a completed activity.
      await expect.poll(() => page.locator(".activity-detail h2").textContent()).toContain("COMPLETED");
      expect(await page.locator(".vote").count()).toBe(0);
    },
    TIMEOUT,
  );

  it(
    "lists a webhook delivery as the receiver got it",
    async () => {
      screenshotOnFailure("webhooks");
      const receiver = await Receiver.start();
      try {
        await open("webhooks");
        await sdkClient(emu).createWebhookEndpoint({ url: receiver.url, name: "ui hook", subscriptions: [{ eventType: "ACTIVITY_UPDATES" }] });
        const made = await sdkClient(emu).createWallet({ walletName: "hooked", accounts: [] });
        await expect.poll(() => receiver.received.some((r) => r.json?.id === made.activity.id || JSON.stringify(r.json ?? "").includes(made.activity.id)), { timeout: 10_000 }).toBe(true);
        const row = page.locator("tr.row", { hasText: receiver.url }).first();
        await expect.poll(() => row.textContent(), { timeout: 10_000 }).toContain("DELIVERED");
        await row.click();
        await expect.poll(() => page.locator(".delivery-detail").first().textContent()).toContain(made.activity.id);
      } finally {
        await receiver.stop();
      }
    },
    TIMEOUT,
  );

  it(
    "shows why an activity was denied",
    async () => {
      screenshotOnFailure("denied");
      const error = await vault("alice")
        .deleteUsers({ userIds: [VAULT.operator] })
        .then(() => null)
        .catch((e: Error) => e);
      expect(error).not.toBeNull();
      await open("activities");
      await page.locator('select[name="status"]').selectOption("FAILED");
      // The type filter offers the types recorded so far.
      await page.locator('select[name="type"] option[value="ACTIVITY_TYPE_DELETE_USERS"]').waitFor({ state: "attached" });
      await page.locator('select[name="type"]').selectOption("ACTIVITY_TYPE_DELETE_USERS");
      await expect.poll(() => page.locator("tr.row").count()).toBe(1);
      const row = page.locator("tr.row", { hasText: "DELETE_USERS" }).first();
      await row.waitFor();
      await row.click();
      const failure = page.locator(".activity-detail .failure");
      await failure.waitFor();
      const failed = (await vault("alice").getActivities({ filterByStatus: ["ACTIVITY_STATUS_FAILED"] })).activities.find((a) => a.type === "ACTIVITY_TYPE_DELETE_USERS")!;
      expect(await failure.textContent()).toContain(failed.failure!.message);
      const detail = await page.locator(".activity-detail").textContent();
      expect(detail).toContain("Nobody deletes users");
      expect(detail).toContain("DENY_EXPLICIT");
      expect(pageErrors).toEqual([]);
    },
    TIMEOUT,
  );
});
