/**
 * The front-end path in a real browser: examples/wallet-kit (React + @turnkey/react-wallet-kit,
 * built with the emulator's Vite plugin) in headless Chromium against an emulator seeded with
 * fixtures/embedded-wallet-app.json. The user drives the kit's own login modal; what the page
 * shows is checked against independent oracles: the emulator's state read through
 * @turnkey/sdk-server with the app backend's key, viem for signatures and for the exported
 * mnemonic's address, and Chromium's virtual authenticator (CDP WebAuthn) for the passkey the
 * emulator registered. Wallet export and import run through the emulator's frames
 * (/emulator/frames/export and /import, the app's exportIframeUrl and importIframeUrl).
 *
 * The app is served by Vite's dev server, as the README runs it (see app.ts), on 127.0.0.1 and
 * pointed at this run's emulator; the page is opened as http://localhost:<port> because a
 * passkey's relying-party id must be a domain name, not an IP address. Failure screenshots go to
 * test-results/.
 */
import { createPrivateKey, createPublicKey } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { verifyMessage, type Hex } from "viem";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmulator, type Fixture, type RunningEmulator } from "../../emulator/index.js";
import { launchChromium, skipBrowserTests } from "../browser/chromium.js";
import { sdkClient } from "../support.js";
import { appServer, type AppServer } from "./app.js";
import { continueWithEmail, kitFrameReady, mailbox, openApp, screenshotOnFailure, settled, waitForAuthState } from "./kit-page.js";

const IMPORTED_MNEMONIC = "test test test test test test test test test test test junk";
const FIXTURE = new URL("../../fixtures/embedded-wallet-app.json", import.meta.url);

describe.skipIf(skipBrowserTests())("the wallet-kit example app in Chromium against the emulator", () => {
  let emu: RunningEmulator;
  let server: AppServer;
  let browser: Browser;
  let appUrl: string;

  beforeAll(async () => {
    server = await appServer();
    appUrl = `http://localhost:${server.port}`;
    // The fixture as shipped, plus this run's origin (the proxy refuses origins it does not list).
    const fixture = JSON.parse(readFileSync(FIXTURE, "utf8")) as Fixture & { organization: { authProxy: { allowedOrigins: string[] } } };
    fixture.organization.authProxy.allowedOrigins.push(appUrl);
    [emu, browser] = await Promise.all([startEmulator({ port: 0, fixtures: fixture }), launchChromium()]);
    // The app is configured with the fixture's ids, as its .env holds them; they are this instance's.
    const ids = { authProxyConfigId: fixture.organization.authProxy.configId, organizationId: fixture.organization.organizationId };
    expect(ids).toEqual({ authProxyConfigId: emu.info.authProxyConfigId, organizationId: emu.info.organizationId });
    await server.start({ ...ids, apiBaseUrl: emu.info.baseUrl, authProxyUrl: emu.info.authProxyUrl });
  }, 600_000);

  afterAll(async () => {
    await browser?.close();
    await emu?.stop();
    await server?.close();
  });

  /** Runs a flow on a fresh browser context (a new device), with a screenshot if it fails. */
  async function onNewDevice(name: string, flow: (page: Page) => Promise<void>): Promise<void> {
    const app = await openApp(browser, appUrl);
    try {
      await flow(app.page);
      expect(app.pageErrors).toEqual([]);
    } catch (error) {
      const shot = await screenshotOnFailure(app.page, name);
      throw Object.assign(error as Error, { message: `${(error as Error).message}\n(screenshot: ${shot})` });
    } finally {
      await app.context.close();
    }
  }

  const text = async (p: Page, testId: string) => (await p.getByTestId(testId).textContent()) ?? "";

  it("email OTP: sign up, create a wallet, sign a message viem verifies, export the wallet and import another through the emulator frames, refresh the session, log out, log in again", async () => {
    const email = "dana@example.com";
    const backend = sdkClient(emu);
    await onNewDevice("email-otp", async (p) => {
      // Sign-up: a new address gets a code by mail, then its own sub-organization.
      const firstCode = await continueWithEmail(p, emu.url, email);
      expect(firstCode.otpCode).toMatch(/^\d{6}$/); // the fixture's OTP settings reach the mail
      await waitForAuthState(p, "authenticated");
      await settled(p);
      const subOrgId = await text(p, "organization-id");
      await p.getByTestId("user-email").filter({ hasText: new RegExp(`^${email}$`) }).waitFor(); // the user loads after the session
      const { organizationIds } = await backend.getSubOrgIds({ filterType: "EMAIL", filterValue: email });
      expect(organizationIds).toEqual([subOrgId]);

      // A wallet created from the page is the one the emulator holds for that sub-organization.
      await p.getByTestId("create-wallet").click();
      const account = p.getByTestId("account").first();
      await account.waitFor();
      await settled(p);
      const address = (await account.getAttribute("data-address")) as Hex;
      const held = await backend.getWalletAccounts({ organizationId: subOrgId, walletId: (await p.getByTestId("wallet").first().getAttribute("data-wallet-id"))! });
      expect(held.accounts.map((a) => a.address)).toEqual([address]);

      // A personal_sign message, checked by viem alone.
      const signed = await signOnPage(p);
      expect(signed.address).toBe(address);
      expect(await verifyMessage({ address, message: signed.message, signature: signatureOf(signed) })).toBe(true);
      expect(await verifyMessage({ address, message: `${signed.message}!`, signature: signatureOf(signed) })).toBe(false);

      // Export: the kit's modal loads the emulator's export frame, which opens the bundle and
      // shows the mnemonic; viem derives the wallet's address from it.
      await p.getByTestId("export-wallet").click();
      const exportButton = p.getByRole("button", { name: "Export Wallet" });
      await kitFrameReady(exportButton);
      await exportButton.click();
      const secret = p.frameLocator("iframe").locator("#secret");
      await secret.filter({ hasText: /^(\w+ ){11,23}\w+$/ }).waitFor();
      expect(mnemonicToAccount((await secret.textContent())!).address).toBe(address);
      await p.getByRole("button", { name: "Done" }).click();
      await settled(p);

      // Import: the mnemonic typed into the emulator's import frame, sealed there to the enclave's
      // target key; the imported wallet's first Ethereum address is viem's for that mnemonic.
      await p.getByTestId("import-wallet").click();
      await p.frameLocator("iframe").locator("#plaintext").fill(IMPORTED_MNEMONIC);
      await p.getByTestId("import-wallet-name-input").fill("Imported in the browser");
      const importButton = p.getByRole("button", { name: "Import", exact: true });
      await kitFrameReady(importButton);
      await importButton.click();
      const imported = mnemonicToAccount(IMPORTED_MNEMONIC).address;
      await p.locator(`[data-testid="account"][data-address="${imported}"]`).waitFor();
      await settled(p);
      const importedWallets = (await backend.getWallets({ organizationId: subOrgId })).wallets.filter((w) => w.walletName === "Imported in the browser");
      expect(importedWallets).toHaveLength(1);

      // Session refresh: five minutes later (emulated clock) a new session key with a later expiry.
      const before = { key: await text(p, "session-public-key"), expiry: Number(await text(p, "session-expiry")) };
      await advanceClock(emu, 300_000);
      await p.getByTestId("refresh-session").click();
      await p.getByTestId("session-public-key").filter({ hasNotText: before.key }).waitFor();
      await settled(p);
      const after = { key: await text(p, "session-public-key"), expiry: Number(await text(p, "session-expiry")) };
      expect(after.expiry - before.expiry).toBeGreaterThanOrEqual(300);
      const sessionKeys = await backend.getApiKeys({ organizationId: subOrgId, userId: await text(p, "user-id") });
      expect(sessionKeys.apiKeys.map((k) => k.credential.publicKey)).toContain(after.key);
      // The refreshed session signs too.
      const again = await signOnPage(p, signed);
      expect(await verifyMessage({ address, message: again.message, signature: signatureOf(again) })).toBe(true);

      // Log out, then log in again by OTP: the same sub-organization, no new one.
      await p.getByTestId("logout").click();
      await waitForAuthState(p, "unauthenticated");
      const secondCode = await continueWithEmail(p, emu.url, email);
      expect(secondCode.otpId).not.toBe(firstCode.otpId);
      await waitForAuthState(p, "authenticated");
      await settled(p);
      expect(await text(p, "organization-id")).toBe(subOrgId);
      expect(await text(p, "session-public-key")).not.toBe(after.key);
      expect((await backend.getSubOrgIds({ filterType: "EMAIL", filterValue: email })).organizationIds).toEqual([subOrgId]);
      await p.locator(`[data-testid="account"][data-address="${imported}"]`).waitFor();
      expect(await p.getByTestId("account").evaluateAll((els) => els.map((e) => e.getAttribute("data-address")).sort())).toEqual([address, imported].sort());
      expect((await mailbox(emu.url, email)).filter((m) => m.kind === "otp")).toHaveLength(2);
    });
  }, 300_000);

  it("an injected export_wallet fault: the kit reports its own export error with the service's answer, not a network error", async () => {
    await onNewDevice("export-fault", async (p) => {
      await continueWithEmail(p, emu.url, "erin@example.com");
      await waitForAuthState(p, "authenticated");
      await settled(p);
      await p.getByTestId("create-wallet").click();
      await p.getByTestId("account").first().waitFor();
      await settled(p);

      // The page's origin (localhost) is not the emulator's: the fault's answer reaches it only with the service's CORS headers.
      const armed = await fetch(`${emu.url}/emulator/v1/faults`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ operation: "export_wallet", count: 1, error: { code: 14, message: "export unavailable (injected)" } }),
      });
      expect(armed.status).toBe(200);
      await p.getByTestId("export-wallet").click();
      const exportButton = p.getByRole("button", { name: "Export Wallet" });
      await kitFrameReady(exportButton);
      await exportButton.click();
      const errors = p.getByTestId("errors");
      await errors.waitFor();
      const shown = await errors.innerText();
      expect(shown).toMatch(/^EXPORT_WALLET_ERROR: /);
      expect(shown).toContain("export unavailable (injected)");
      expect(shown).not.toContain("Failed to fetch");
      const faults = (await (await fetch(`${emu.url}/emulator/v1/faults`)).json()) as { faults: unknown[] };
      expect(faults.faults).toEqual([]); // used up by the kit's one request
    });
  }, 300_000);

  it("passkey: sign up and log in again through Chromium's virtual authenticator", async () => {
    const backend = sdkClient(emu);
    await onNewDevice("passkey", async (p) => {
      const cdp = await p.context().newCDPSession(p);
      await cdp.send("WebAuthn.enable");
      const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
        options: { protocol: "ctap2", transport: "internal", hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
      });

      await p.getByTestId("login").click();
      await p.getByText("Sign up with passkey").click();
      await waitForAuthState(p, "authenticated");
      await settled(p);
      const subOrgId = await text(p, "organization-id");
      const userId = await text(p, "user-id");

      // The credential the browser made is the one the emulator registered: same id, same public key.
      const [credential, ...others] = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
      expect(others).toEqual([]);
      expect(credential!.rpId).toBe("localhost");
      const { authenticators } = await backend.getAuthenticators({ organizationId: subOrgId, userId });
      expect(authenticators).toHaveLength(1);
      expect(Buffer.from(authenticators[0]!.credentialId, "base64url")).toEqual(Buffer.from(credential!.credentialId, "base64"));
      expect(authenticators[0]!.credential.publicKey).toBe(compressedPublicKey(credential!.privateKey));
      const { organizationIds } = await backend.getSubOrgIds({ filterType: "CREDENTIAL_ID", filterValue: authenticators[0]!.credentialId });
      expect(organizationIds).toEqual([subOrgId]);

      // Log out and log in with the same passkey: one more assertion, the same sub-organization.
      const signCount = credential!.signCount;
      await p.getByTestId("logout").click();
      await waitForAuthState(p, "unauthenticated");
      await p.getByTestId("login").click();
      await p.getByText("Log in with passkey").click();
      await waitForAuthState(p, "authenticated");
      await settled(p);
      expect(await text(p, "organization-id")).toBe(subOrgId);
      expect(await text(p, "user-id")).toBe(userId);
      const [used] = (await cdp.send("WebAuthn.getCredentials", { authenticatorId })).credentials;
      expect(used!.signCount).toBeGreaterThan(signCount);
    });
  }, 300_000);
});

type Signed = { address: Hex; message: string; r: string; s: string; v: string };

/** Clicks "Sign a message" and reads the result the page shows (a new one when `previous` is given). */
async function signOnPage(p: Page, previous?: Signed): Promise<Signed> {
  await p.getByTestId("sign-message").click();
  const out = p.getByTestId("signature");
  if (previous) await out.filter({ hasNotText: previous.r }).waitFor();
  else await out.waitFor();
  await settled(p);
  return JSON.parse((await out.textContent())!) as Signed;
}

/** r || s || v as one 65-byte signature (v from the API is the recovery id, 00 or 01). */
function signatureOf(signed: Signed): Hex {
  return `0x${signed.r}${signed.s}${(Number.parseInt(signed.v, 16) + 27).toString(16)}`;
}

async function advanceClock(emu: RunningEmulator, ms: number): Promise<void> {
  const res = await fetch(`${emu.url}/emulator/v1/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advanceMs: ms }) });
  if (!res.ok) throw new Error(`clock: HTTP ${res.status} ${await res.text()}`);
}

/** The compressed P-256 public key of a PKCS#8 private key (as CDP returns a virtual credential's). */
function compressedPublicKey(pkcs8Base64: string): string {
  const jwk = createPublicKey(createPrivateKey({ key: Buffer.from(pkcs8Base64, "base64"), format: "der", type: "pkcs8" })).export({ format: "jwk" });
  const x = Buffer.from(jwk.x!, "base64url");
  const y = Buffer.from(jwk.y!, "base64url");
  return Buffer.concat([Buffer.from([(y[y.length - 1]! & 1) === 1 ? 3 : 2]), x]).toString("hex");
}
