/**
 * Measures the web UI (not a test: `npx tsx test/ui/measure-load.ts [--activities N] [--runs N] [--shots DIR]`):
 *
 * - page load to first paint / first contentful paint, and to the activity list drawn, with
 *   N activities recorded (default 1,000 sign_raw_payload through @turnkey/sdk-server), each
 *   run in a fresh browser context (nothing cached), read from Chromium's Performance API;
 * - the bytes the UI adds to the package: its static assets, and its server modules as tsc
 *   emits them, raw and gzipped;
 * - with --shots DIR, a screenshot of every tab (PNG).
 */
import { readdirSync, readFileSync, statSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { parseArgs } from "node:util";
import ts from "typescript";
import { launchChromium } from "../browser/chromium.js";
import { sdkClient, startTestEmulator } from "../support.js";
import { uiFixture, VAULT } from "./fixture.js";

const { values } = parseArgs({ options: { activities: { type: "string", default: "1000" }, runs: { type: "string", default: "5" }, shots: { type: "string" } } });
const root = join(import.meta.dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? files(join(dir, f)) : [join(dir, f)]));
}

function sizes(): void {
  const assets = files(join(root, "emulator/ui/assets"));
  const assetBytes = assets.reduce((n, f) => n + statSync(f).size, 0);
  const assetGzip = assets.reduce((n, f) => n + gzipSync(readFileSync(f)).length, 0);
  const server = [
    "emulator/families/control/ui-routes.ts",
    ...["ui-votes", "ui-events", "organizations-routes", "activities-routes", "policies-routes"].map((f) => `emulator/families/control/${f}.ts`),
  ];
  const emitted = server.map((f) => ts.transpileModule(readFileSync(join(root, f), "utf8"), { compilerOptions: { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.NodeNext } }).outputText);
  const serverBytes = emitted.reduce((n, js) => n + Buffer.byteLength(js), 0);
  console.log(`UI assets: ${assets.length} files, ${assetBytes} bytes (${assetGzip} gzipped, file by file)`);
  console.log(`UI server modules as emitted JS (without source maps and .d.ts): ${server.length} files, ${serverBytes} bytes`);
  console.log("new dependencies: none");
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  sizes();
  const n = Number(values.activities);
  const f = uiFixture();
  const emu = await startTestEmulator({ fixtures: f.fixture, validateResponses: false });
  try {
    const c = sdkClient(emu);
    const signWith = (await c.getWalletAccounts({ walletId: emu.info.walletId! })).accounts[0]!.address;
    let made = 0;
    const worker = async () => {
      while (made < n) {
        made++;
        await c.signRawPayload({ signWith, payload: `message ${made}`, encoding: "PAYLOAD_ENCODING_TEXT_UTF8", hashFunction: "HASH_FUNCTION_KECCAK256" });
      }
    };
    const t0 = performance.now();
    await Promise.all(Array.from({ length: 8 }, worker));
    const listed = (await (await fetch(`${emu.url}/emulator/v1/activities?limit=1`)).json()) as { total: number };
    console.log(`${listed.total} activities recorded in ${Math.round(performance.now() - t0)} ms`);

    const browser = await launchChromium();
    try {
      const runs: { fp: number; fcp: number; list: number }[] = [];
      for (let i = 0; i < Number(values.runs); i++) {
        const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
        const page = await context.newPage();
        await page.goto(`${emu.url}/emulator/ui/#activities`);
        await page.locator("tr.row").nth(99).waitFor();
        const m = await page.evaluate(() => {
          const paint = Object.fromEntries(performance.getEntriesByType("paint").map((e) => [e.name, e.startTime]));
          return { fp: paint["first-paint"] ?? NaN, fcp: paint["first-contentful-paint"] ?? NaN, list: performance.now() };
        });
        runs.push(m);
        await context.close();
      }
      const fmt = (k: "fp" | "fcp" | "list") => `${median(runs.map((r) => r[k])).toFixed(0)} ms (runs: ${runs.map((r) => r[k].toFixed(0)).join(", ")})`;
      console.log(`with ${listed.total} activities, fresh context per run, median of ${runs.length}:`);
      console.log(`  first paint             ${fmt("fp")}`);
      console.log(`  first contentful paint  ${fmt("fcp")}`);
      console.log(`  newest 100 listed       ${fmt("list")}  (upper bound: measured after the wait returned)`);

      if (values.shots) {
        // Something to look at: a pending 2-of-2 activity, a denial, an OTP, a sub-organization.
        const alice = sdkClient(emu, f.keys.alice, VAULT.organizationId);
        const pending = await alice.createWallet({ walletName: "needs Bob", accounts: [] });
        await alice.deleteUsers({ userIds: [VAULT.operator] }).catch(() => undefined); // denied by policy: recorded FAILED
        const failed = (await (await fetch(`${emu.url}/emulator/v1/activities?status=FAILED&limit=1`)).json()) as { activities: { id: string }[] };
        await c.initOtp({ otpType: "OTP_TYPE_EMAIL", contact: "alice@example.com", appName: "Shots" } as never);
        await c.createSubOrganization({ subOrganizationName: "End user: alice", rootQuorumThreshold: 1, rootUsers: [{ userName: "alice", userEmail: "alice@example.com", apiKeys: [], authenticators: [], oauthProviders: [] }] });
        mkdirSync(values.shots, { recursive: true });
        const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
        const shots: [string, string][] = [
          ["organizations", "organizations"],
          ["organizations-vault", `organizations/${VAULT.organizationId}`],
          ["wallets", "wallets"],
          ["activities-pending", `activities/${pending.activity.id}`],
          ["activities-denied", `activities/${failed.activities[0]!.id}`],
          ["policies", `policies/${VAULT.organizationId}`],
          ["mailbox", "mailbox"],
          ["webhooks", "webhooks"],
          ["requests", "requests"],
          ["clock", "clock"],
          ["snapshots", "snapshots"],
        ];
        for (const [name, hash] of shots) {
          await page.goto(`${emu.url}/emulator/ui/#${hash}`);
          await page.waitForTimeout(700);
          if (name === "policies") {
            await page.click("text=Evaluate");
            await page.waitForTimeout(500);
          }
          const file = join(values.shots, `ui-${name}.png`);
          await page.screenshot({ path: file });
          console.log(`screenshot ${file}`);
        }
      }
    } finally {
      await browser.close();
    }
  } finally {
    await emu.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
