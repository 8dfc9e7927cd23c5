/**
 * `NODE_OPTIONS="--import turnkey-emulator/trust"`: the official export-in-node and
 * import-in-node flows and @turnkey/core's OTP login complete against the emulator with no
 * source change and no dangerouslyOverride… option; without the preload they fail on the
 * production enclave keys the SDKs compile in.
 */
import { beforeAll, describe, expect, it, vi } from "vitest";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomUUID } from "node:crypto";
import { english, generateMnemonic, mnemonicToAccount, privateKeyToAddress } from "viem/accounts";
import { bytesToHex } from "viem";
import { loadFixture } from "../../emulator/index.js";
import { sdkClient, startTestEmulator } from "../support.js";
import { useTestEmulator } from "../use-test-emulator.js";
import { exampleEnv, runScript } from "./support.js";

const FIXTURE_MNEMONIC = "test test test test test test test test test test test junk";
const PRODUCTION_SIGNER = "04cf288fe433cc4e1aa0ce1632feac4ea26bf2f5a09dcfe5a42c398e06898710330f0572882f4dbdf0f5304b8fc8703acd69adca9a4bbf7f5d00d20a5e364b2569";
const mismatch = (emulatorKey: string) => new RegExp(`expected signer key ${PRODUCTION_SIGNER} does not match signer key from bundle: ${emulatorKey}`);

// Each case starts Node processes that load the SDKs (1-3 s each, more on a busy machine).
vi.setConfig({ testTimeout: 120_000 });

const emu = useTestEmulator();
let env: Record<string, string>;

beforeAll(async () => {
  env = exampleEnv(emu);
});

describe("export-in-node, unchanged, under the preload", () => {
  it("prints the fixture wallet's mnemonic (ES modules, --import)", async () => {
    const run = await runScript("export-in-node.mjs", { ...env, EXPORT_TYPE: "wallet", WALLET_ID: emu.info.walletId! }, "--import");
    expect(run.stderr).toBe("");
    expect(run).toMatchObject({ code: 0, stdout: `${FIXTURE_MNEMONIC}\n` });
  });

  it("prints it too from CommonJS (require of the packages' dist/*.js), preloaded through NODE_OPTIONS", async () => {
    const run = await runScript("export-in-node.cjs", { ...env, WALLET_ID: emu.info.walletId! }, "NODE_OPTIONS");
    expect(run.stderr).toBe("");
    expect(run).toMatchObject({ code: 0, stdout: `${FIXTURE_MNEMONIC}\n` });
  });

  it("prints it too when run by tsx, as the example's `start` script runs it (tsx's module hooks chain with the preload's)", async () => {
    const run = await runScript("export-in-node.mjs", { ...env, EXPORT_TYPE: "wallet", WALLET_ID: emu.info.walletId! }, "NODE_OPTIONS", "tsx");
    expect(run.stderr).toBe("");
    expect(run).toMatchObject({ code: 0, stdout: `${FIXTURE_MNEMONIC}\n` });
  });

  it("exports an account's private key: viem derives the same key and address from the mnemonic", async () => {
    const account = mnemonicToAccount(FIXTURE_MNEMONIC);
    const run = await runScript("export-in-node.mjs", { ...env, EXPORT_TYPE: "account", ADDRESS: account.address }, "--import");
    expect(run.code, run.stderr).toBe(0);
    const exported = run.stdout.trim().replace(/^0x/, "").toLowerCase();
    expect(`0x${exported}`).toBe(bytesToHex(account.getHdKey().privateKey!));
    expect(privateKeyToAddress(`0x${exported}`)).toBe(account.address);
  });
});

describe("import-in-node, unchanged, under the preload", () => {
  it("imports a wallet whose accounts are the ones viem derives from the mnemonic", async () => {
    const mnemonic = generateMnemonic(english);
    const run = await runScript("import-in-node.mjs", { ...env, IMPORT_TYPE: "wallet", MNEMONIC: mnemonic }, "--import");
    expect(run.code, run.stderr).toBe(0);
    const walletId = /Successfully imported wallet with id: (\S+)/.exec(run.stdout)?.[1];
    expect(walletId).toBeTruthy();
    const { addresses } = await sdkClient(emu).createWalletAccounts({
      walletId: walletId!,
      accounts: [{ curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" }],
    });
    expect(addresses).toEqual([mnemonicToAccount(mnemonic).address]);
  });

  it("imports a private key whose address is the one viem derives", async () => {
    const privateKey = bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
    const run = await runScript("import-in-node.mjs", { ...env, IMPORT_TYPE: "key", KEY_FORMAT: "HEXADECIMAL", PRIVATE_KEY: privateKey.slice(2) }, "--import");
    expect(run.code, run.stderr).toBe(0);
    const privateKeyId = /Successfully imported private key with id: (\S+)/.exec(run.stdout)?.[1];
    const { privateKey: stored } = await sdkClient(emu).getPrivateKey({ privateKeyId: privateKeyId! });
    expect(stored.addresses.map((a) => a.address)).toEqual([privateKeyToAddress(privateKey)]);
  });
});

describe("without the preload", () => {
  it("the same export and import scripts fail on the production signer key", async () => {
    const [exp, imp] = await Promise.all([
      runScript("export-in-node.mjs", { ...env, EXPORT_TYPE: "wallet", WALLET_ID: emu.info.walletId! }, "none"),
      runScript("import-in-node.mjs", { ...env, IMPORT_TYPE: "wallet", MNEMONIC: FIXTURE_MNEMONIC }, "none"),
    ]);
    expect(exp.code).toBe(1);
    expect(exp.stdout).toBe("");
    expect(exp.stderr).toMatch(mismatch(emu.info.signerPublicKey));
    expect(imp.code).toBe(1);
    expect(imp.stderr).toMatch(mismatch(emu.info.signerPublicKey));
  });
});

describe("@turnkey/core OTP sign-up and login (verifyOtp takes no key override)", () => {
  const coreEnv = () => ({ BASE_URL: emu.url, AUTH_PROXY_URL: emu.proxyUrl, AUTH_PROXY_CONFIG_ID: emu.info.authProxyConfigId!, ORGANIZATION_ID: emu.info.organizationId });

  it("completes under the preload: verifyOtp -> signUpWithOtp, then verifyOtp -> loginWithOtp, and the session stamps whoami", async () => {
    const email = `trust-${randomUUID().slice(0, 8)}@example.com`;
    const run = await runScript("core-otp-login.mjs", { ...coreEnv(), EMAIL: email }, "NODE_OPTIONS");
    expect(run.code, run.stderr).toBe(0);
    const out = JSON.parse(run.stdout);
    expect(out.signedUp).toMatch(/^[0-9a-f-]{36}$/);
    expect(out).toMatchObject({ loggedIn: out.signedUp, whoami: { organizationId: out.signedUp, userId: out.sessionUserId, username: "trust test user" } });
    // The emulator agrees: the contact is verified in exactly that sub-organization.
    expect((await sdkClient(emu).getVerifiedSubOrgIds({ filterType: "EMAIL", filterValue: email })).organizationIds).toEqual([out.signedUp]);
  });

  it("fails at verifyOtp without it: the OTP target bundle is signed by the emulator's TLS-fetcher key", async () => {
    const run = await runScript("core-otp-login.mjs", { ...coreEnv(), EMAIL: `trust-${randomUUID().slice(0, 8)}@example.com` }, "none");
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Failed to verify OTP/);
    expect(run.stderr).toContain(`does not match signer key from bundle: ${emu.info.tlsFetcherPublicKey}`);
  });
});

describe("what the preload trusts, and when it refuses", () => {
  it("NODE_ENV=production: one warning line and nothing substituted, unless EMULATOR_TRUST_FORCE=1", async () => {
    const exportEnv = { ...env, EXPORT_TYPE: "wallet", WALLET_ID: emu.info.walletId! };
    const [refused, forced] = await Promise.all([
      runScript("export-in-node.mjs", { ...exportEnv, NODE_ENV: "production" }, "NODE_OPTIONS"),
      runScript("export-in-node.mjs", { ...exportEnv, NODE_ENV: "production", EMULATOR_TRUST_FORCE: "1" }, "NODE_OPTIONS"),
    ]);
    expect(refused.code).toBe(1);
    const [warning, ...rest] = refused.stderr.split("\n");
    expect(warning).toMatch(/^turnkey-emulator\/trust: NODE_ENV=production, so .*nothing is substituted/);
    expect(rest.join("\n")).not.toMatch(/turnkey-emulator\/trust/);
    expect(refused.stderr).toMatch(mismatch(emu.info.signerPublicKey));

    expect(forced).toMatchObject({ code: 0, stdout: `${FIXTURE_MNEMONIC}\n`, stderr: "" });
  });

  it("an emulator started with another fixture is trusted through EMULATOR_TRUST_FIXTURE or TURNKEY_EMULATOR_ORG_ID, not by default", async () => {
    const fixture = structuredClone(loadFixture());
    fixture.organization.organizationId = randomUUID();
    const file = join(mkdtempSync(join(tmpdir(), "trust-fixture-")), "app.json");
    writeFileSync(file, JSON.stringify(fixture));
    const other = await startTestEmulator({ fixtures: file });
    try {
      const otherEnv = { ...exampleEnv(other), EXPORT_TYPE: "wallet", WALLET_ID: other.info.walletId! };
      const [byFile, byId, byDefault] = await Promise.all([
        runScript("export-in-node.mjs", { ...otherEnv, EMULATOR_TRUST_FIXTURE: file }, "--import"),
        runScript("export-in-node.mjs", { ...otherEnv, TURNKEY_EMULATOR_ORG_ID: fixture.organization.organizationId }, "--import"),
        runScript("export-in-node.mjs", otherEnv, "--import"),
      ]);
      expect(byFile, byFile.stderr).toMatchObject({ code: 0, stdout: `${FIXTURE_MNEMONIC}\n` });
      expect(byId, byId.stderr).toMatchObject({ code: 0, stdout: `${FIXTURE_MNEMONIC}\n` });
      // The default fixture's keys are not this instance's.
      expect(byDefault.code).toBe(1);
      expect(byDefault.stderr).toMatch(new RegExp(`expected signer key ${emu.info.signerPublicKey} does not match signer key from bundle: ${other.info.signerPublicKey}`));
    } finally {
      await other.stop();
    }
  });
});
