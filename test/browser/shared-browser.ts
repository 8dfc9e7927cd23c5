/**
 * Vitest global setup: one Chromium for every browser file of the run, started only when the
 * first of them asks. It listens on a loopback HTTP port whose answer is the browser's
 * Playwright WebSocket endpoint (launching it on the first request), and publishes that
 * port's URL to the workers in CHROMIUM_BROKER_URL before they start; launchChromium() in
 * chromium.ts connects there. A run without browser files starts no browser.
 *
 * Each project of vitest.config.ts runs its global setups, so the broker is kept on
 * globalThis and counted: the projects share it, and the last teardown closes it.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { BrowserServer } from "playwright-core";
import { BROKER_VARIABLE, launchChromiumServer } from "./chromium.js";

type Broker = { users: number; server: Server; browser?: Promise<BrowserServer> };
const KEY = Symbol.for("turnkey-emulator/test/shared-browser");
const shared = globalThis as { [KEY]?: Broker };

export default async function setup(): Promise<() => Promise<void>> {
  let broker = shared[KEY];
  if (!broker) {
    const created: Broker = { users: 0, server: createServer() };
    created.server.on("request", (_req, res) => {
      created.browser ??= launchChromiumServer();
      created.browser.then(
        (browser) => res.end(browser.wsEndpoint()),
        (error: Error) => {
          created.browser = undefined; // the next file tries again and reports its own failure
          res.writeHead(500).end(error.message);
        },
      );
    });
    await new Promise<void>((resolve) => created.server.listen(0, "127.0.0.1", resolve));
    process.env[BROKER_VARIABLE] = `http://127.0.0.1:${(created.server.address() as AddressInfo).port}/`;
    broker = shared[KEY] = created;
  }
  broker.users++;
  const mine = broker;
  return async () => {
    if (--mine.users > 0) return;
    delete shared[KEY];
    delete process.env[BROKER_VARIABLE];
    await new Promise<void>((resolve) => mine.server.close(() => resolve()));
    await (await mine.browser?.catch(() => undefined))?.close();
  };
}
