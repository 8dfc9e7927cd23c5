/**
 * A team's suite, as it runs in a project that installed the packed package (packed.ts): 40 vitest
 * files at 4 threads and 40 jest files at 4 workers, with the README's set-up and nothing else,
 * each create a wallet of the same name, list the wallets and expect exactly the fixture's and
 * their own. No line of a test coordinates with another: the isolation is the helpers' (an
 * instance per worker, reset to the fixture for each file). Then `npx emulator init` and
 * `npx emulator start` in that project serve the written fixture without a flag, and
 * @turnkey/sdk-server reads its wallet.
 *
 * Needs dist/ built and the npm registry (vitest, jest and the SDK are installed as a user would);
 * skipped, saying so, only when the registry cannot be reached.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { mnemonicToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENV, packAndInstall, registryUnreachable, run, versionHere } from "./packed.js";

const unreachable = await registryUnreachable();
if (unreachable) console.warn(`test/package/isolation.test.ts skipped: the npm registry cannot be reached (${unreachable})`);

const FILES = 40;
const DEV_WALLET = "Well-known dev wallet (test ... junk)"; // the default fixture's wallet, as its file names it
let work = "";
let project = "";
const children: ChildProcess[] = [];

/** One test file: what a developer writes against their own emulator, with the connection the helper hands it. */
const walletTest = (connection: string, framework: "vitest" | "jest") => `${framework === "vitest" ? `import { appendFileSync } from "node:fs";\nimport { Turnkey } from "@turnkey/sdk-server";\nimport { expect, inject, it } from "vitest";` : `const { appendFileSync } = require("node:fs");\nconst { Turnkey } = require("@turnkey/sdk-server");\nconst { turnkeyEnv } = require("turnkey-emulator/jest");`}

${framework === "vitest" ? "it" : "test"}("creates a wallet named like every other file's, and lists exactly its own", async () => {
  const turnkey = ${connection};
  const api = new Turnkey({ apiBaseUrl: turnkey.url, defaultOrganizationId: turnkey.organizationId, apiPublicKey: turnkey.apiPublicKey, apiPrivateKey: turnkey.apiPrivateKey }).apiClient();
  const { walletId } = await api.createWallet({ walletName: "team wallet", accounts: [] });
  const { wallets } = await api.getWallets({});
  expect(wallets.map((w) => w.walletName).sort()).toEqual([${JSON.stringify(DEV_WALLET)}, "team wallet"].sort());
  expect(wallets.find((w) => w.walletName === "team wallet").walletId).toBe(walletId);
  appendFileSync(process.env.SEEN, JSON.stringify({ url: turnkey.url }) + "\\n");
});
`;

/** Which instances the files of a run reached (one line per file). */
const urlsSeen = (file: string) => readFileSync(file, "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { url: string }).url);

describe.skipIf(unreachable)("the installed package in a team's suite", () => {
  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "turnkey-emulator-suites-"));
    ({ project } = await packAndInstall(work, [`@turnkey/sdk-server@${versionHere("@turnkey/sdk-server")}`, `vitest@${versionHere("vitest")}`, "jest@30"]));
    writeFileSync(join(project, "vitest.config.js"), `import { defineConfig } from "vitest/config";\n\nexport default defineConfig({ test: { globalSetup: ["turnkey-emulator/vitest"], include: ["vitest/**/*.test.js"], pool: "threads", poolOptions: { threads: { minThreads: 4, maxThreads: 4 } }, testTimeout: 60_000 } });\n`);
    // jest reads a .cjs config in a "type": "module" project; its test files are CommonJS (.cjs) as jest runs them without a transform.
    writeFileSync(
      join(project, "jest.config.cjs"),
      `module.exports = { globalSetup: "turnkey-emulator/jest/global-setup", globalTeardown: "turnkey-emulator/jest/global-teardown", testEnvironment: "node", testMatch: ["**/jest/**/*.test.cjs"], transform: {}, testTimeout: 60000 };\n`,
    );
    mkdirSync(join(project, "vitest"));
    mkdirSync(join(project, "jest"));
    for (let i = 1; i <= FILES; i++) {
      writeFileSync(join(project, "vitest", `wallet-${i}.test.js`), walletTest(`inject("turnkey")`, "vitest"));
      writeFileSync(join(project, "jest", `wallet-${i}.test.cjs`), walletTest("turnkeyEnv()", "jest"));
    }
  }, 300_000);

  afterAll(() => {
    for (const c of children) if (c.pid && c.exitCode === null) process.kill(-c.pid, "SIGTERM");
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it(`vitest: ${FILES} files at 4 threads each see only their own wallet`, async () => {
    const SEEN = join(work, "vitest-seen.jsonl");
    const r = await run(process.execPath, [join(project, "node_modules", "vitest", "vitest.mjs"), "run"], { cwd: project, env: { ...ENV, SEEN, NO_COLOR: "1" }, timeout: 400_000 }).catch((e: { stdout: string; stderr: string }) => e);
    expect(r.stdout, r.stdout + r.stderr).toMatch(new RegExp(`Tests\\s+${FILES} passed \\(${FILES}\\)`));
    const urls = urlsSeen(SEEN);
    expect(urls).toHaveLength(FILES);
    // Four workers, four instances: files ran side by side.
    expect(new Set(urls).size).toBe(4);
  }, 420_000);

  it(`jest: ${FILES} files at 4 workers each see only their own wallet`, async () => {
    const SEEN = join(work, "jest-seen.jsonl");
    const r = await run(process.execPath, [join(project, "node_modules", "jest", "bin", "jest.js"), "--maxWorkers=4", "--ci"], { cwd: project, env: { ...ENV, SEEN, NO_COLOR: "1" }, timeout: 400_000 }).catch((e: { stdout: string; stderr: string }) => e);
    expect(r.stderr, r.stdout + r.stderr).toMatch(new RegExp(`Tests:\\s+${FILES} passed, ${FILES} total`));
    const urls = urlsSeen(SEEN);
    expect(urls).toHaveLength(FILES);
    expect(new Set(urls).size).toBeGreaterThanOrEqual(2);
    expect(new Set(urls).size).toBeLessThanOrEqual(4);
  }, 420_000);

  it("`npx emulator init` writes a fixture that `npx emulator start` serves without a flag; the SDK reads its wallet", async () => {
    const init = await run("npx", ["--no-update-notifier", "emulator", "init"], { cwd: project, env: ENV, timeout: 60_000 });
    expect(init.stdout).toContain("Wrote turnkey-emulator.jsonc");
    // The file as written, read by TypeScript's JSONC reader (comments, trailing commas): the ids and keys start uses.
    const parsed = ts.parseConfigFileTextToJson("turnkey-emulator.jsonc", readFileSync(join(project, "turnkey-emulator.jsonc"), "utf8"));
    expect(parsed.error).toBeUndefined();
    const written = parsed.config as { organization: { organizationId: string; users: { apiKeys?: { publicKey: string; privateKey: string }[] }[]; wallets: { walletId: string; walletName: string; mnemonic: string }[] } };
    const [wallet] = written.organization.wallets;
    const rootKey = written.organization.users[0]!.apiKeys![0]!;

    const child = spawn("npx", ["--no-update-notifier", "emulator", "start", "--port", "0"], { cwd: project, env: ENV, stdio: ["ignore", "pipe", "pipe"], detached: true });
    children.push(child);
    let out = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no banner after 30 s: ${out}`)), 30_000);
      child.stdout.on("data", (d) => {
        out += d;
        if (out.includes("API private key")) resolve(clearTimeout(timer));
      });
      child.once("exit", (code) => reject(new Error(`npx emulator start exited ${code}: ${out}`)));
    });
    expect(out).toMatch(/Fixture\s+\S*turnkey-emulator\.jsonc/);
    const url = /Coordinator API\s+(\S+)/.exec(out)![1]!;
    const script = join(project, "read-wallet.mjs");
    writeFileSync(
      script,
      `import { Turnkey } from "@turnkey/sdk-server";
const api = new Turnkey({ apiBaseUrl: ${JSON.stringify(url)}, defaultOrganizationId: ${JSON.stringify(written.organization.organizationId)}, apiPublicKey: ${JSON.stringify(rootKey.publicKey)}, apiPrivateKey: ${JSON.stringify(rootKey.privateKey)} }).apiClient();
const { wallets } = await api.getWallets({});
const { accounts } = await api.getWalletAccounts({ walletId: ${JSON.stringify(wallet!.walletId)} });
console.log(JSON.stringify({ wallets, accounts }));
`,
    );
    const { stdout } = await run(process.execPath, [script], { cwd: project, env: ENV, timeout: 60_000 });
    const { wallets, accounts } = JSON.parse(stdout.trim().split("\n").pop()!) as { wallets: { walletId: string; walletName: string }[]; accounts: { addressFormat: string; address: string }[] };
    expect(wallets).toEqual([expect.objectContaining({ walletId: wallet!.walletId, walletName: wallet!.walletName })]);
    // Its Ethereum account is the one viem derives from the written mnemonic.
    expect(accounts.find((a) => a.addressFormat === "ADDRESS_FORMAT_ETHEREUM")!.address).toBe(mnemonicToAccount(wallet!.mnemonic).address);
    expect(accounts.map((a) => a.addressFormat).sort()).toEqual(["ADDRESS_FORMAT_BITCOIN_MAINNET_P2WPKH", "ADDRESS_FORMAT_ETHEREUM", "ADDRESS_FORMAT_SOLANA", "ADDRESS_FORMAT_TRON"]);
  }, 120_000);
});
