/**
 * Issue 28 in a real browser: a page of another origin (another port on 127.0.0.1) and a DNS
 * rebinding page (a name that resolves to 127.0.0.1, asking the emulator's port) can neither
 * read the control API (state image, info with the dev key, mailbox) nor reset it; the
 * emulator's own UI, at 127.0.0.1 and at localhost, still reads and writes.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../../emulator/index.js";
import { startTestEmulator } from "../support.js";
import { launchChromium, launchOwnChromium, skipBrowserTests } from "./chromium.js";

const DAY = 86_400_000;

describe.skipIf(skipBrowserTests())("the control API in Chromium", () => {
  let emu: RunningEmulator;
  let other: Server;
  let otherUrl: string;

  beforeAll(async () => {
    emu = await startTestEmulator();
    const res = await fetch(`${emu.url}/emulator/v1/clock`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advanceMs: DAY }) });
    expect(res.status).toBe(200);
    other = createServer((_req, res) => {
      res.setHeader("content-type", "text/html");
      res.end("<!doctype html><title>another app</title>");
    });
    await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
    otherUrl = `http://127.0.0.1:${(other.address() as AddressInfo).port}/`;
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => other.close(() => resolve()));
    await emu.stop();
  });

  const offsetMs = async () => ((await (await fetch(`${emu.url}/emulator/v1/clock`)).json()) as { offsetMs: number }).offsetMs;

  /** What a hostile page's script gets: each read's outcome, and whether its writes left. */
  const ATTACK = async (base: string) => {
    const outcome: Record<string, string> = {};
    for (const path of ["/emulator/v1/state", "/emulator/v1/info", "/emulator/v1/mailbox", "/emulator/v1/changes"]) {
      try {
        const res = await fetch(base + path);
        outcome[path] = `${res.status} ${(await res.text()).slice(0, 80)}`;
      } catch (err) {
        outcome[path] = `blocked: ${String(err)}`;
      }
    }
    // Writes a page can make without a preflight, then the one that needs it.
    const writes = [
      fetch(base + "/emulator/v1/reset", { method: "POST", mode: "no-cors" }),
      fetch(base + "/emulator/v1/reset", { method: "POST", mode: "no-cors", body: "{}" }),
      fetch(base + "/emulator/v1/reset", { method: "POST", mode: "no-cors", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "a=1" }),
      fetch(base + "/emulator/v1/reset", { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }),
    ];
    for (const [i, w] of writes.entries()) {
      try {
        const res = await w;
        outcome[`write ${i}`] = res.type === "opaque" ? "opaque" : String(res.status);
      } catch (err) {
        outcome[`write ${i}`] = `blocked: ${String(err)}`;
      }
    }
    return outcome;
  };

  it("a page on another port of 127.0.0.1 reads nothing and resets nothing", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(otherUrl);
      const outcome = await page.evaluate(ATTACK, emu.url);
      for (const path of ["/emulator/v1/state", "/emulator/v1/info", "/emulator/v1/mailbox", "/emulator/v1/changes"]) expect(outcome[path], path).toMatch(/^blocked: TypeError/);
      expect(outcome["write 3"]).toMatch(/^blocked: TypeError/); // its preflight is refused
      expect(await offsetMs()).toBe(DAY);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("a DNS rebinding page (rebind.test resolving to 127.0.0.1, on the emulator's port) reads nothing and resets nothing", async () => {
    const browser: Browser = await launchOwnChromium(["--host-resolver-rules=MAP rebind.test 127.0.0.1"]);
    try {
      const page = await browser.newPage();
      const port = new URL(emu.url).port;
      // Any page of the emulator's port the attacker's name reaches: the OpenAPI document is public.
      const landing = await page.goto(`http://rebind.test:${port}/openapi.json`);
      expect(landing?.status()).toBe(200);
      const outcome = await page.evaluate(ATTACK, `http://rebind.test:${port}`);
      for (const path of ["/emulator/v1/state", "/emulator/v1/info", "/emulator/v1/mailbox", "/emulator/v1/changes"]) expect(outcome[path], path).toMatch(/^403 .*host not allowed/);
      for (const i of [0, 1, 2, 3]) expect(["403", "opaque"]).toContain(outcome[`write ${i}`]);
      expect(await offsetMs()).toBe(DAY);
    } finally {
      await browser.close();
    }
  }, 60_000);

  it("the emulator's own UI reads and writes at 127.0.0.1 and at localhost", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      for (const base of [emu.url, emu.url.replace("127.0.0.1", "localhost")]) {
        await page.goto(`${base}/emulator/ui/`);
        await expect.poll(() => page.textContent("body"), { timeout: 10_000 }).toContain(emu.info.organizationName);
        const write = await page.evaluate(async () => (await fetch("/emulator/v1/clock", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ advanceMs: 0 }) })).status);
        expect(write).toBe(200);
      }
    } finally {
      await browser.close();
    }
  }, 60_000);
});
