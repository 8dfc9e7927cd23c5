/**
 * The bundled build (scripts/bundle.ts; what bin/emulator.js and the package entry load) works:
 * the suite otherwise runs the TypeScript sources, so a bundling mistake (a package that must stay
 * external, a path resolved from the wrong place, a lazily required chain library) would only show
 * after publishing. Bundles a fresh copy as the build does (with its V8 code caches, so what runs
 * below is code from the cache), then drives its CLI with the official SDK and checks the answers
 * with viem and @solana/web3.js, and the package entry with startEmulator().
 */
import { spawnSync, type ChildProcess } from "node:child_process";
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { PublicKey } from "@solana/web3.js";
import { Turnkey } from "@turnkey/sdk-server";
import { keccak256, parseTransaction, recoverAddress, recoverTransactionAddress, serializeTransaction, toHex, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle } from "../scripts/bundle.js";
import Database from "better-sqlite3";
import { appliedMigrations, migrate } from "../emulator/core/store/migrations.js";
import { schema as familySchema } from "../emulator/families.js";
import { loadFixture } from "../emulator/fixtures/load.js";
import { BASELINE_MIGRATIONS } from "../emulator/core/store/schema.js";
import { startCliEmulator } from "./support.js";

const ROOT = join(import.meta.dirname, "..");
const OUT = join(ROOT, "node_modules", ".cache", `bundle-test-${process.pid}`);

let child: ChildProcess | undefined;
let banner = "";

beforeAll(async () => {
  await bundle(OUT, { warm: true });
}, 120_000);

afterAll(() => {
  child?.kill("SIGTERM");
  rmSync(OUT, { recursive: true, force: true });
});

const field = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(banner)![1]!;

describe("the bundled CLI", () => {
  it("comes with a code cache for the CLI and for the package entry", () => {
    expect(readdirSync(join(OUT, ".v8-cache")).map((f) => f.replace(/-[0-9a-f]{20}-.*/, "")).sort()).toEqual(["cli.cjs", "index.cjs"]);
  });

  it("answers --help and --version without starting anything", () => {
    const help = spawnSync(process.execPath, [join(OUT, "cli.js"), "--help"], { encoding: "utf8" });
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/usage: emulator start/);
    const version = spawnSync(process.execPath, [join(OUT, "cli.js"), "--version"], { encoding: "utf8" });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });

  it("starts with the default fixture and serves wallets and signatures the SDK and chain libraries accept", async () => {
    const started = await startCliEmulator(["--port", "0"], 30_000, [join(OUT, "cli.js")]);
    child = started.child;
    banner = started.out;
    const api = new Turnkey({
      apiBaseUrl: field("Coordinator API"),
      defaultOrganizationId: field("Organization"),
      apiPublicKey: field("API public key"),
      apiPrivateKey: field("API private key"),
    }).apiClient();

    const { walletId, addresses } = await api.createWallet({
      walletName: "bundled",
      accounts: [
        { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/60'/0'/0/0", addressFormat: "ADDRESS_FORMAT_ETHEREUM" },
        { curve: "CURVE_ED25519", pathFormat: "PATH_FORMAT_BIP32", path: "m/44'/501'/0'/0'", addressFormat: "ADDRESS_FORMAT_SOLANA" },
        { curve: "CURVE_SECP256K1", pathFormat: "PATH_FORMAT_BIP32", path: "m/86'/0'/0'/0/0", addressFormat: "ADDRESS_FORMAT_BITCOIN_MAINNET_P2TR" },
      ],
    });
    expect(walletId).toBeTruthy();
    const [eth, sol, btc] = addresses as [Hex, string, string];
    expect(PublicKey.isOnCurve(new PublicKey(sol).toBytes())).toBe(true);
    expect(btc).toMatch(/^bc1p[02-9ac-hj-np-z]{58}$/);

    const payload = toHex("signed by the bundle");
    const sig = await api.signRawPayload({ signWith: eth, payload, encoding: "PAYLOAD_ENCODING_HEXADECIMAL", hashFunction: "HASH_FUNCTION_KECCAK256" });
    const recovered = await recoverAddress({ hash: keccak256(payload), signature: { r: `0x${sig.r}`, s: `0x${sig.s}`, v: BigInt(sig.v) + 27n } });
    expect(recovered.toLowerCase()).toBe(eth.toLowerCase());

    // The transaction path requires viem lazily, from the bundle's location.
    const unsigned = serializeTransaction({ chainId: 1, type: "eip1559", nonce: 0, to: eth, value: 1n, gas: 21000n, maxFeePerGas: 2n, maxPriorityFeePerGas: 1n });
    const { signedTransaction } = await api.signTransaction({ signWith: eth, unsignedTransaction: unsigned.slice(2), type: "TRANSACTION_TYPE_ETHEREUM" });
    const signed = `0x${signedTransaction.replace(/^0x/, "")}` as Hex;
    expect(parseTransaction(signed).value).toBe(1n);
    expect((await recoverTransactionAddress({ serializedTransaction: signed as never })).toLowerCase()).toBe(eth.toLowerCase());
  }, 60_000);
});

describe("the bundled package entry", () => {
  it("exports startEmulator, which serves the SDK", async () => {
    const entry = (await import(join(OUT, "index.js"))) as typeof import("../emulator/index.js");
    const emu = await entry.startEmulator({ port: 0 });
    try {
      const api = new Turnkey({ apiBaseUrl: emu.url, defaultOrganizationId: emu.info.organizationId, apiPublicKey: emu.info.apiPublicKey!, apiPrivateKey: emu.info.apiPrivateKey! }).apiClient();
      const { wallets } = await api.getWallets();
      expect(wallets.length).toBeGreaterThan(0);
      expect(typeof entry.loadFixture).toBe("function");
      // The package's fixtures were checked when it was bundled: what it loads is what the sources parse.
      expect(entry.loadFixture()).toStrictEqual(loadFixture());
      expect(entry.loadFixture("treasury")).toStrictEqual(loadFixture("treasury"));
      // Its databases get the schema the bundler took from the migrations, the core's and every family's: the one they build now.
      const migrated = new Database(":memory:");
      try {
        migrate(migrated, familySchema);
        const schema = (db: Database.Database) => db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name").all();
        expect(schema(emu.runtime.store.db)).toEqual(schema(migrated));
        expect(emu.runtime.store.db.pragma("user_version", { simple: true })).toBe(BASELINE_MIGRATIONS.length);
        expect(appliedMigrations(emu.runtime.store.db)).toEqual(appliedMigrations(migrated));
      } finally {
        migrated.close();
      }
    } finally {
      await emu.stop();
    }
  }, 60_000);
});
