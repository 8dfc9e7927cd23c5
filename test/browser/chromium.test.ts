import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, skipBrowserTests } from "./chromium.js";

// The launcher itself: a page served on 127.0.0.1 is rendered and its script runs.
describe.skipIf(skipBrowserTests())("headless Chromium", () => {
  const server = createServer((_req, res) => {
    res.setHeader("content-type", "text/html");
    res.end(`<!doctype html><p id="out"></p><script>document.getElementById("out").textContent = String(6 * 7)</script>`);
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve)));
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("renders a local page and runs its script", async () => {
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
      expect(await page.textContent("#out")).toBe("42");
    } finally {
      await browser.close();
    }
  }, 60_000);
});
