/**
 * Driving the example app in Chromium: the page's own buttons (data-testid) and the wallet
 * kit's modal as a user would (its visible inputs and button labels), plus reading the emulator's
 * mailbox for the codes an end user would receive.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";

const STEP_TIMEOUT = 60_000;

export type AppPage = { context: BrowserContext; page: Page; pageErrors: string[] };

/** A fresh browser context (its own IndexedDB and localStorage: a new device) on the app. */
export async function openApp(browser: Browser, url: string): Promise<AppPage> {
  const context = await browser.newContext();
  context.setDefaultTimeout(STEP_TIMEOUT);
  const page = await context.newPage();
  const pageErrors: string[] = [];
  page.on("pageerror", (error) => pageErrors.push(error.message));
  // The page's requests that failed or were refused (>= 400), and its console errors: why it is not ready, if it is not.
  const failedRequests: string[] = [];
  page.on("requestfailed", (request) => failedRequests.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`));
  page.on("response", (response) => response.status() >= 400 && failedRequests.push(`${response.request().method()} ${response.url()}: ${response.status()}`));
  const consoleErrors: string[] = [];
  page.on("console", (message) => message.type() === "error" && consoleErrors.push(message.text()));
  await page.goto(url);
  try {
    await page.getByTestId("client-state").filter({ hasText: "ready" }).waitFor();
  } catch (error) {
    const shown = async (testId: string) => (await page.getByTestId(testId).allInnerTexts().catch(() => [])).join(" | ") || "(none)";
    const shot = await screenshotOnFailure(page, "not-ready");
    const why = `client-state ${await shown("client-state")}; errors shown ${await shown("errors")}; page errors ${JSON.stringify(pageErrors)}; console errors ${JSON.stringify(consoleErrors)}; failed requests ${JSON.stringify(failedRequests)}; screenshot ${shot}`;
    await context.close();
    throw Object.assign(error as Error, { message: `${(error as Error).message}\nthe app did not get ready: ${why}` });
  }
  return { context, page, pageErrors };
}

export async function authState(page: Page): Promise<string> {
  return (await page.getByTestId("auth-state").textContent()) ?? "";
}

/** Waits until the page shows `state`, failing early with the errors the app shows. */
export async function waitForAuthState(page: Page, state: "authenticated" | "unauthenticated"): Promise<void> {
  await Promise.race([
    page.getByTestId("auth-state").filter({ hasText: new RegExp(`^${state}$`) }).waitFor(),
    page
      .getByTestId("errors")
      .waitFor()
      .then(async () => {
        throw new Error(`the app reported: ${await page.getByTestId("errors").innerText()}`);
      }),
  ]);
}

/** Waits for the app's pending action to finish (its busy marker disappears) and for the kit's modal to close. */
export async function settled(page: Page): Promise<void> {
  await page.getByTestId("busy").waitFor({ state: "detached" });
  await page.getByRole("dialog").waitFor({ state: "detached" });
}

export type Mail = { contact: string; kind?: string; otpCode?: string; otpId?: string; body: string };

export async function mailbox(emulatorUrl: string, contact: string): Promise<Mail[]> {
  const res = await fetch(`${emulatorUrl}/emulator/v1/mailbox?contact=${encodeURIComponent(contact)}`);
  if (!res.ok) throw new Error(`mailbox: HTTP ${res.status}`);
  return (await res.json()) as Mail[];
}

/** The first OTP mail to `contact` after the first `seen` messages (polls: the kit sends it asynchronously). */
export async function nextOtp(page: Page, emulatorUrl: string, contact: string, seen: number): Promise<Mail> {
  for (;;) {
    const mail = (await mailbox(emulatorUrl, contact)).slice(seen).find((m) => m.kind === "otp");
    if (mail) return mail;
    await page.waitForTimeout(250);
  }
}

/** The kit's modal: email, then the code from the mailbox, typed into its code boxes. */
export async function continueWithEmail(page: Page, emulatorUrl: string, email: string): Promise<Mail> {
  const seen = (await mailbox(emulatorUrl, email)).length;
  await page.getByTestId("login").click();
  const input = page.getByPlaceholder("Enter your email");
  await input.fill(email);
  await input.press("Enter");
  const mail = await nextOtp(page, emulatorUrl, email, seen);
  await page.getByText(email, { exact: true }).waitFor(); // the code page names the address
  await page.locator('input[inputmode="numeric"]').first().click();
  await page.keyboard.type(mail.otpCode!);
  return mail;
}

/**
 * Waits until the kit's modal holds a ready frame client before `button` (its "Export Wallet" or
 * "Import") is clicked. The kit enables those buttons while its IframeStamper is still starting
 * (frame load, PUBLIC_KEY_READY, APPLY_SETTINGS); a click before that asks for an export bundle
 * without a target key, or finds no import client, and the kit reports an error. A person does
 * not click that fast; a test on a loaded machine does. The modal's React component keeps the
 * client in its props (export) or its state (import), so this walks from the button up the
 * component tree until one holds an IframeStamper (each fiber and its alternate: the element
 * may point at either of React's two copies of it).
 */
export async function kitFrameReady(button: Locator): Promise<void> {
  const handle = await button.elementHandle();
  await button.page().waitForFunction((element) => {
    // The kit stores its IframeStamper only once init (PUBLIC_KEY_READY) and APPLY_SETTINGS have answered.
    const isReadyStamper = (v: unknown) => typeof v === "object" && v !== null && "messageChannel" in v && "iframe" in v;
    type Fiber = { return?: Fiber | null; alternate?: Fiber | null; memoizedProps?: Record<string, unknown> | null; memoizedState?: unknown };
    const holdsReadyStamper = (fiber: Fiber) => {
      if (fiber.memoizedProps && typeof fiber.memoizedProps === "object" && Object.values(fiber.memoizedProps).some(isReadyStamper)) return true;
      for (let hook = fiber.memoizedState as { memoizedState?: unknown; next?: unknown } | null; hook && typeof hook === "object" && "next" in hook; hook = hook.next as typeof hook)
        if (isReadyStamper(hook.memoizedState)) return true;
      return false;
    };
    const key = Object.keys(element!).find((k) => k.startsWith("__reactFiber$"));
    for (let fiber = key ? ((element as unknown as Record<string, Fiber>)[key] as Fiber | undefined) : undefined; fiber; fiber = fiber.return ?? undefined)
      if (holdsReadyStamper(fiber) || (fiber.alternate && holdsReadyStamper(fiber.alternate))) return true;
    return false;
  }, handle);
}

/** Full-page screenshot of a failed test in test-results/ (gitignored). */
export async function screenshotOnFailure(page: Page | undefined, name: string): Promise<string | undefined> {
  if (!page || page.isClosed()) return undefined;
  const dir = join(process.cwd(), "test-results");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `wallet-kit-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.png`);
  await page.screenshot({ path, fullPage: true }).catch(() => undefined);
  return path;
}
