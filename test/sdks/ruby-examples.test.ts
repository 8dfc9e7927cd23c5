/**
 * Turnkey's Ruby SDK (tkhq/ruby-sdk, gem `turnkey_client`) runs its own examples against the
 * emulator unchanged but for the base URL. The SDK is not a dependency of this repository (its
 * Gemfile pins gems only rubygems has): point TURNKEY_RUBY_SDK at a checkout of it and have
 * Debian's `ruby`, `ruby-typhoeus` and `ruby-dotenv`; without them the file is skipped, saying so.
 *
 *   git clone https://github.com/tkhq/ruby-sdk /tmp/ruby-sdk
 *   TURNKEY_RUBY_SDK=/tmp/ruby-sdk npx vitest run test/sdks/ruby-examples.test.ts
 *
 * With TURNKEY_EMULATOR_URL the examples run against that emulator instead of one this file
 * starts, e.g. the container image's published port (README "Containers"):
 *
 *   docker run --rm -p 127.0.0.1:18787:8787 turnkey-emulator &
 *   TURNKEY_RUBY_SDK=/tmp/ruby-sdk TURNKEY_EMULATOR_URL=http://127.0.0.1:18787 npx vitest run test/sdks/ruby-examples.test.ts
 *
 * The examples send what the SDK's era sent: `organization_id` by its proto name (whoami),
 * `ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4` with `"userEmail": null` (create_sub_org). Each
 * answer is checked independently: the signature recovers with viem to the address the wallet
 * holds, the sub-organization and its Tron account exist as the SDK printed them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recoverMessageAddress } from "viem";
import type { RunningEmulator } from "../../emulator/index.js";
import { newP256KeyPair, sdkClient, startTestEmulator } from "../support.js";

const sdk = process.env.TURNKEY_RUBY_SDK;
const ruby = spawnSync("ruby", ["-e", 'require "typhoeus"; require "dotenv"'], { encoding: "utf8" });
const why = !sdk
  ? "TURNKEY_RUBY_SDK is not set (a checkout of tkhq/ruby-sdk)"
  : !existsSync(join(sdk, "turnkey_client/lib/turnkey_client.rb"))
    ? `${sdk} is not a checkout of tkhq/ruby-sdk`
    : ruby.status !== 0
      ? `ruby with typhoeus and dotenv is missing (apt-get install ruby ruby-typhoeus ruby-dotenv): ${ruby.error?.message ?? ruby.stderr.trim()}`
      : undefined;
if (why) console.warn(`test/sdks/ruby-examples.test.ts skipped: ${why}`);

/** The emulator at TURNKEY_EMULATOR_URL as the helpers take one: its URL and its info (GET /emulator/v1/info). */
async function runningAt(url: string): Promise<RunningEmulator> {
  const info = (await (await fetch(new URL("/emulator/v1/info", url))).json()) as RunningEmulator["info"];
  return { url: url.replace(/\/$/, ""), proxyUrl: info.authProxyUrl, info, stop: async () => {} } as unknown as RunningEmulator;
}

describe.skipIf(!!why)("Turnkey's Ruby SDK examples, unchanged but for the base URL", () => {
  let emu: RunningEmulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const subRoot = newP256KeyPair();

  beforeAll(async () => {
    const target = process.env.TURNKEY_EMULATOR_URL;
    emu = target ? await runningAt(target) : await startTestEmulator();
    dir = mkdtempSync(join(tmpdir(), "ruby-sdk-"));
    // The one change a user makes: the SDK's default configuration points at the emulator.
    writeFileSync(
      join(dir, "base_url.rb"),
      'require "turnkey_client"\nrequire "uri"\nu = URI(ENV.fetch("TURNKEY_BASE_URL"))\nTurnkeyClient::Configuration.default.scheme = u.scheme\nTurnkeyClient::Configuration.default.host = "#{u.host}:#{u.port}"\n',
    );
    env = {
      ...process.env,
      TURNKEY_BASE_URL: emu.url,
      TURNKEY_ORGANIZATION_ID: emu.info.organizationId,
      TURNKEY_API_PUBLIC_KEY: emu.info.apiPublicKey!,
      TURNKEY_API_PRIVATE_KEY: emu.info.apiPrivateKey!,
      SUB_ORGANIZATION_ROOT_PUBLIC_KEY: subRoot.publicKey,
    };
  });
  afterAll(async () => {
    await emu?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  // Asynchronously: the emulator answers from this process's event loop.
  const run = async (example: string): Promise<string> =>
    (await promisify(execFile)("ruby", ["-I", join(sdk!, "turnkey_client/lib"), "-r", join(dir, "base_url.rb"), `${example}.rb`], { cwd: join(sdk!, "examples", example), env, encoding: "utf8", timeout: 60_000 })).stdout;

  it("whoami (organization_id by its proto name) prints the organization and the root user", async () => {
    const out = await run("whoami");
    expect(out).not.toContain("Exception");
    expect(out).toContain(`:organizationId=>"${emu.info.organizationId}"`);
    expect(out).toContain(`:userId=>"${emu.info.rootUserId}"`);
  });

  it("signing creates a wallet and signs a message whose signature recovers to its address", async () => {
    const out = await run("signing");
    expect(out).toContain("successful signature");
    const address = /- address: (0x[0-9a-fA-F]{40})/.exec(out)![1]!;
    const signature = /- signature hash: (0x[0-9a-f]{130})/.exec(out)![1]! as `0x${string}`;
    const recovered = await recoverMessageAddress({ message: "hello from Turnkey, in Ruby!", signature });
    expect(recovered).toBe(address);
  });

  it("create_sub_org (V4, userEmail null) makes the sub-organization with its Tron wallet", async () => {
    const out = await run("create_sub_org");
    expect(out).toContain("Created new Turnkey sub-organization successfully");
    const subOrgId = /Sub-Organization ID: ([0-9a-f-]{36})/.exec(out)![1]!;
    const tron = /Tron wallet address: (T[1-9A-HJ-NP-Za-km-z]{33})/.exec(out)![1]!;
    const sub = sdkClient(emu, subRoot, subOrgId);
    const { wallets } = await sub.getWallets({ organizationId: subOrgId });
    expect(wallets.map((w) => w.walletName)).toEqual(["Tron Wallet"]);
    const { accounts } = await sub.getWalletAccounts({ organizationId: subOrgId, walletId: wallets[0]!.walletId });
    expect(accounts.map((a) => [a.address, a.path, a.addressFormat])).toEqual([[tron, "m/44'/195'/0'", "ADDRESS_FORMAT_TRON"]]);
    const { activities } = await sdkClient(emu).getActivities({ filterByType: ["ACTIVITY_TYPE_CREATE_SUB_ORGANIZATION_V4"] });
    const created = activities.map((a) => a.result.createSubOrganizationResultV4?.subOrganizationId);
    // An emulator already running (TURNKEY_EMULATOR_URL) may hold earlier runs' sub-organizations too.
    if (process.env.TURNKEY_EMULATOR_URL) expect(created).toContain(subOrgId);
    else expect(created).toEqual([subOrgId]);
  });
});
