/**
 * One way to start a headless browser for the browser tests: Debian's Chromium
 * (`apt-get install -y chromium`; `.ci/run` installs it) driven by playwright-core with an
 * explicit executable path, because browser downloads cannot work offline.
 *
 * Set CHROMIUM_PATH to use another binary. Outside CI a machine without Chromium skips the
 * browser tests with a message saying why; under CI (CI=true) a missing browser is a failure.
 *
 * Under vitest the browser files share one Chromium process (shared-browser.ts, a global
 * setup, starts it on the first file's request): each file connects and works in its own
 * browser contexts, and its close() disconnects. Elsewhere each caller launches its own.
 */
import { existsSync } from "node:fs";
import { chromium, type Browser, type BrowserServer } from "playwright-core";

const CANDIDATES = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"];

/** The Chromium binary to drive, or undefined when this machine has none. */
export function chromiumPath(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return CANDIDATES.find((path) => existsSync(path));
}

/** True when browser tests must be skipped here (no browser, and not CI). */
export function skipBrowserTests(): boolean {
  if (chromiumPath()) return false;
  if (process.env.CI) throw new Error("CI needs Chromium for the browser tests: apt-get install -y chromium (or set CHROMIUM_PATH)");
  console.warn("browser tests skipped: no Chromium here (apt-get install -y chromium, or set CHROMIUM_PATH)");
  return true;
}

// Flags for a closed network: without the background-networking ones Chromium keeps trying
// to reach Google's hosts and its refused connections slow every start.
const FLAGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];

/** Set by the test run's global setup: where to ask for the shared Chromium's WebSocket endpoint. */
export const BROKER_VARIABLE = "CHROMIUM_BROKER_URL";

/**
 * A headless Chromium: the test run's shared one when there is one (close() disconnects and
 * removes this caller's contexts), else a new process (playwright gives it a fresh temporary
 * profile and removes it on close).
 */
export async function launchChromium(): Promise<Browser> {
  const broker = process.env[BROKER_VARIABLE];
  if (broker) {
    const res = await fetch(broker);
    if (!res.ok) throw new Error(`shared Chromium: ${res.status} ${await res.text()}`);
    return chromium.connect(await res.text());
  }
  return chromium.launch({ executablePath: requiredPath(), headless: true, args: FLAGS });
}

/** A Chromium process of the caller's own, started with these flags besides the usual ones (e.g. `--host-resolver-rules`). */
export async function launchOwnChromium(extraFlags: string[]): Promise<Browser> {
  return chromium.launch({ executablePath: requiredPath(), headless: true, args: [...FLAGS, ...extraFlags] });
}

/** A Chromium serving the Playwright protocol on a loopback WebSocket, for launchChromium's callers to connect to. */
export async function launchChromiumServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: requiredPath(), headless: true, args: FLAGS, host: "127.0.0.1" });
}

function requiredPath(): string {
  const executablePath = chromiumPath();
  if (!executablePath) throw new Error("no Chromium: apt-get install -y chromium, or set CHROMIUM_PATH");
  return executablePath;
}
