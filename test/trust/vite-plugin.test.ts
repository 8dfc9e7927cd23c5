/**
 * `turnkey-emulator/vite`: the production enclave keys in @turnkey/crypto become the emulator's
 * in what Vite serves (dev: esbuild pre-bundling and the transform pipeline) and builds, and
 * stay production in a production build.
 */
import { afterEach, describe, expect, it, vi } from "vitest";
import { mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build, createServer, type Plugin, type Rollup } from "vite";
import turnkeyEmulatorTrust from "../../emulator/trust/vite.js";
import { instanceKeysFor, instancePublicKeys } from "../../emulator/core/auth/instance-keys.js";
import { loadFixture } from "../../emulator/index.js";

const PRODUCTION_SIGNER = "04cf288fe433cc4e1aa0ce1632feac4ea26bf2f5a09dcfe5a42c398e06898710330f0572882f4dbdf0f5304b8fc8703acd69adca9a4bbf7f5d00d20a5e364b2569";
const PRODUCTION_NOTARIZER = "04d498aa87ac3bf982ac2b5dd9604d0074905cfbda5d62727c5a237b895e6749205e9f7cd566909c4387f6ca25c308445c60884b788560b785f4a96ac33702a469";
// What an emulator started with the default fixture holds (its own derivation, not the plugin's copy).
const emulator = instancePublicKeys(instanceKeysFor(loadFixture().organization.organizationId));
const APP = fileURLToPath(new URL("./fixtures/vite-app/", import.meta.url));
const cryptoDist = dirname(createRequire(import.meta.url).resolve("@turnkey/crypto"));

const savedNodeEnv = process.env.NODE_ENV;
afterEach(() => {
  process.env.NODE_ENV = savedNodeEnv;
  vi.restoreAllMocks();
});

type Hook = (...args: unknown[]) => unknown;
function configure(plugin: Plugin, mode: string) {
  return (plugin.config as Hook).call({}, {}, { mode, command: mode === "production" ? "build" : "serve" });
}
function transform(plugin: Plugin, code: string, id: string) {
  return (plugin.transform as Hook).call({}, code, id) as { code: string; map: null } | null;
}

describe("the Vite plugin's transform", () => {
  it("swaps the keys in @turnkey/crypto's real dist files (ESM and CJS) and leaves app code alone", () => {
    const plugin = turnkeyEmulatorTrust();
    configure(plugin, "development");
    for (const file of ["constants.mjs", "constants.js"]) {
      const id = join(cryptoDist, file);
      const out = transform(plugin, readFileSync(id, "utf8"), `${id}?v=1234`)!;
      expect(out.map).toBeNull();
      expect(out.code).toContain(`PRODUCTION_SIGNER_SIGN_PUBLIC_KEY = "${emulator.signerPublicKey}"`);
      expect(out.code).toContain(`PRODUCTION_NOTARIZER_SIGN_PUBLIC_KEY = "${emulator.notarizerPublicKey}"`);
      expect(out.code).toContain(`PRODUCTION_TLS_FETCHER_SIGN_PUBLIC_KEY = "${emulator.tlsFetcherPublicKey}"`);
      expect(out.code).not.toContain(PRODUCTION_SIGNER);
    }
    expect(transform(plugin, `export const k = "${PRODUCTION_SIGNER}";`, join(APP, "main.js"))).toBeNull();
  });

  it("takes the keys of another fixture from its options", () => {
    const plugin = turnkeyEmulatorTrust({ organizationId: "org-b" });
    configure(plugin, "development");
    const out = transform(plugin, readFileSync(join(cryptoDist, "constants.mjs"), "utf8"), join(cryptoDist, "constants.mjs"))!;
    expect(out.code).toContain(instancePublicKeys(instanceKeysFor("org-b")).signerPublicKey);
  });

  it("refuses in a production build (one warning, nothing swapped) unless forced", () => {
    process.env.NODE_ENV = "production";
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const code = readFileSync(join(cryptoDist, "constants.mjs"), "utf8");
    const plain = turnkeyEmulatorTrust();
    configure(plain, "production");
    expect(transform(plain, code, join(cryptoDist, "constants.mjs"))).toBeNull();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toMatch(/^turnkey-emulator\/vite: NODE_ENV=production, .*nothing is substituted/);

    const forced = turnkeyEmulatorTrust({ force: true });
    configure(forced, "production");
    expect(transform(forced, code, join(cryptoDist, "constants.mjs"))!.code).toContain(emulator.signerPublicKey);
    expect(warn).toHaveBeenCalledTimes(1);
  });
});

describe("the Vite plugin in real Vite runs", () => {
  /** Starts a dev server on the test app, loads its entry and the pre-bundled @turnkey/crypto it imports. */
  async function devServer(options: Parameters<typeof turnkeyEmulatorTrust>[0], cacheDir: string, force: boolean) {
    process.env.NODE_ENV = "development";
    const server = await createServer({
      root: APP,
      configFile: false,
      logLevel: "silent",
      cacheDir,
      plugins: [turnkeyEmulatorTrust(options)],
      optimizeDeps: { include: ["@turnkey/crypto"], force },
      server: { host: "127.0.0.1", port: 0 },
    });
    try {
      await server.listen();
      const base = server.resolvedUrls!.local[0]!;
      const main = await (await fetch(new URL("main.js", base))).text();
      const depUrl = /from "([^"]*@turnkey_crypto[^"]*)"/.exec(main)?.[1];
      expect(depUrl).toBeTruthy();
      // Answered once the optimizer has written the pre-bundle.
      const served = await (await fetch(new URL(depUrl!, base))).text();
      // The pre-bundled file itself, as esbuild wrote it (before any transform hook).
      const onDisk = readFileSync(join(cacheDir, "deps", "@turnkey_crypto.js"), "utf8");
      return { served, onDisk, files: readdirSync(join(cacheDir, "deps")) };
    } finally {
      await server.close();
    }
  }

  it("dev server: dependency pre-bundling (esbuild) writes the emulator keys, and the app is served them", async () => {
    const { served, onDisk, files } = await devServer({}, mkdtempSync(join(tmpdir(), "trust-vite-cache-")), true);
    expect(served).toContain(emulator.signerPublicKey);
    expect(served).not.toContain(PRODUCTION_SIGNER);
    expect(onDisk).toContain(`"${emulator.signerPublicKey}"`);
    expect(onDisk).toContain(`"${emulator.notarizerPublicKey}"`);
    expect(onDisk).not.toContain(PRODUCTION_SIGNER);
    expect(files).toContain("_metadata.json");
  });

  it("dev server: a pre-bundle made with one fixture's keys is not reused for another's", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "trust-vite-cache-"));
    expect((await devServer({}, cacheDir, false)).onDisk).toContain(emulator.signerPublicKey);
    const orgB = instancePublicKeys(instanceKeysFor("org-b")).signerPublicKey;
    const second = await devServer({ organizationId: "org-b" }, cacheDir, false);
    expect(second.onDisk).toContain(orgB);
    expect(second.served).toContain(orgB);
    expect(second.onDisk).not.toContain(emulator.signerPublicKey);
  });

  async function bundle(mode: string, nodeEnv: string): Promise<string> {
    process.env.NODE_ENV = nodeEnv;
    const result = (await build({
      root: APP,
      configFile: false,
      logLevel: "silent",
      mode,
      plugins: [turnkeyEmulatorTrust()],
      build: {
        write: false,
        minify: false,
        lib: { entry: join(APP, "main.js"), formats: ["es"], fileName: "main" },
        // Bundle @turnkey/crypto's own modules (where the keys are), not its whole dependency tree.
        rollupOptions: { external: (source) => !source.startsWith("@turnkey/") && !source.startsWith(".") && !source.startsWith("/") && !source.startsWith("\0") },
      },
    })) as Rollup.RollupOutput | Rollup.RollupOutput[];
    return [result].flat().flatMap((out) => out.output.map((o) => (o.type === "chunk" ? o.code : ""))).join("\n");
  }

  it("vite build --mode development bundles the emulator keys; a plain (production) build keeps the production ones", async () => {
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const dev = await bundle("development", "production");
    expect(dev).toContain(emulator.signerPublicKey);
    expect(dev).toContain(emulator.notarizerPublicKey);
    expect(dev).not.toContain(PRODUCTION_SIGNER);
    const prod = await bundle("production", "production");
    expect(prod).toContain(PRODUCTION_SIGNER);
    expect(prod).toContain(PRODUCTION_NOTARIZER);
    expect(prod).not.toContain(emulator.signerPublicKey);
  }, 120_000);
});
