/**
 * `npm run build` step 2: bundles the CLI and the package entry into dist/bundle/, which
 * bin/emulator.js and the package's "." export load. dist/emulator/ (tsc) stays for the type
 * declarations.
 *
 * Each entry is one CommonJS file (cli.cjs, index.cjs) that a small ES module stub (cli.js,
 * index.js) runs through a V8 code cache (emulator/core/lib/cached-script.ts): a start then
 * neither parses nor compiles what an earlier start compiled. The build makes that cache with
 * one start of each (`warm`), so the first real start has it too.
 *
 * Why: start-up was dominated by loading ~430 ES modules and ~100 CommonJS files one by one
 * (resolution, file reads, one compile each); one graph in one file loads in about half the CPU
 * time, and its compile then goes to the code cache (`npm run bench -- start`). Modules the code
 * imports dynamically stay lazy: esbuild wraps them in functions run on first import.
 *
 * Packages stay external when they cannot be bundled or are loaded on first use anyway:
 * native addons (better-sqlite3, EDR, LiteSVM), tiny-secp256k1 (reads its .wasm beside
 * itself), cbor-x (optional native extension), and the chain libraries the emulator
 * requires lazily (viem, bitcoinjs-lib, @solana/web3.js, @turnkey/*).
 */
import { build, type BuildOptions, type Plugin } from "esbuild";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { BUNDLE_URL_PARAMETER, cacheDirsFor, loadCachedBundle } from "../emulator/core/lib/cached-script.js";
import { newDatabaseSchema } from "../emulator/core/store/db.js";
import { schema } from "../emulator/families.js";
import { checkedFixtures } from "../emulator/fixtures/load.js";

const root = fileURLToPath(new URL("../", import.meta.url));

export const EXTERNAL = [
  "better-sqlite3",
  "@nomicfoundation/edr",
  "litesvm",
  "tiny-secp256k1",
  "cbor-x",
  "viem",
  "viem/*",
  "bitcoinjs-lib",
  "@solana/web3.js",
  "@solana/spl-token",
  "@turnkey/*",
];

/**
 * zod's entries (classic, core) re-export every message locale as a namespace (`z.locales`, ~340 kB in 64
 * files) that the bundle would then parse at every start; the emulator uses English messages
 * only (zod's default), so the namespace keeps just `en`.
 */
const zodEnglishOnly: Plugin = {
  name: "zod-english-only",
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]zod[\\/]v4[\\/](classic|core|mini)[\\/]/.test(args.importer) ? { path: join(dirname(args.importer), "..", "locales", "en.js"), namespace: "zod-locales" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "zod-locales" }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: dirname(args.path) }));
  },
};

/**
 * The externals, plugins and target of every bundle: the shipped entries add SHIPPED_CJS's
 * format (one CommonJS file each, run through the code cache); the bench's emulator child
 * (scripts/bench/emulator-child.ts) uses these as they are (ES modules with chunks). Both hold
 * the same code, so request-path figures hold for what ships; start-up is measured on dist/ itself.
 */
export const SHIPPED: BuildOptions = {
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  chunkNames: "chunks/[name]-[hash]",
  plugins: [zodEnglishOnly],
  // A new database's schema, taken from the core's and every family's migrations now rather than by every process that starts (core/store/db.ts);
  // the package's fixtures, parsed and checked now (fixtures/load.ts: a start skips an unchanged one).
  define: { __EMULATOR_DATABASE_SCHEMA__: JSON.stringify(newDatabaseSchema(schema)), __EMULATOR_CHECKED_FIXTURES__: JSON.stringify(checkedFixtures()) },
  // Bundled CommonJS packages (express and its dependencies) call require() for node built-ins.
  banner: { js: "import { createRequire as __emulatorCreateRequire } from 'node:module'; const require = __emulatorCreateRequire(import.meta.url);" },
  logLevel: "warning",
};

/** How the shipped entries are bundled: one CommonJS file each, run by cached-script.ts. */
const SHIPPED_CJS: BuildOptions = {
  ...SHIPPED,
  splitting: false,
  format: "cjs",
  banner: {},
  // The wrapper cached-script.ts runs the file in passes the bundle's own URL under this name.
  define: { ...SHIPPED.define, "import.meta.url": BUNDLE_URL_PARAMETER },
  // import() of a bundled module becomes a lazily run function, of an external one a require (Node >= 20.19 requires ES modules).
  supported: { "dynamic-import": false },
  // Non-ASCII characters in strings, templates and regular expressions escaped, so the loader decodes the file as latin1
  // into a one-byte string (what is left outside ASCII is in comments, where latin1 cannot change the code).
  charset: "ascii",
  outExtension: { ".js": ".cjs" },
};

const LOADER = fileURLToPath(new URL("../emulator/core/lib/cached-script.ts", import.meta.url));

const CLI_USAGE = fileURLToPath(new URL("../emulator/cli-usage.ts", import.meta.url));

/**
 * The ES module that runs `name`.cjs through the code cache (cached-script.js, the loader built
 * beside it) and re-exports `exportNames` of it. The CLI's answers --help and --version itself
 * and only then imports the loader: node:crypto and node:vm alone cost ~20 ms to load.
 */
function stub(name: "cli" | "index", exportNames: string[], writeCacheAfterMs: number): string {
  const load = `loadCachedBundle(fileURLToPath(new URL(${JSON.stringify(`./${name}.cjs`)}, import.meta.url)), { writeCacheAfterMs: ${writeCacheAfterMs} })`;
  const lines = [`import { fileURLToPath } from "node:url";`];
  if (name === "cli")
    return [
      ...lines,
      `import { answerAtOnce } from ${JSON.stringify(CLI_USAGE)};`,
      `if (!answerAtOnce(process.argv.slice(2))) {`,
      `  const { loadCachedBundle } = await import("./cached-script.js");`,
      `  ${load};`,
      `}`,
    ].join("\n");
  return [...lines, `import { loadCachedBundle } from "./cached-script.js";`, `const { exports: m } = ${load};`, ...exportNames.map((e) => `export const ${e} = m[${JSON.stringify(e)}];`)].join("\n");
}

export type BundleOptions = {
  /** Start each entry once so that its code cache exists before the first real start (the build does; tests need not). */
  warm?: boolean;
};

/** Writes cli.js, index.js, their .cjs bundles and the loader (cached-script.js) to `outdir` (emptied first); it must lie inside the package, whose root the emulator finds by walking up. */
export async function bundle(outdir: string, options: BundleOptions = {}): Promise<void> {
  rmSync(outdir, { recursive: true, force: true });
  await build({ ...SHIPPED_CJS, entryPoints: { cli: `${root}emulator/cli.ts`, index: `${root}emulator/index.ts` }, outdir, sourcemap: "linked" });
  // The package entry's names, read from the bundle itself (a load without a cache: nothing is started).
  const indexFile = join(outdir, "index.cjs");
  const exportNames = Object.keys(loadCachedBundle(indexFile, { cacheDirs: [] }).exports).filter((n) => n !== "__esModule");
  const stubs = { cli: stub("cli", [], 1000), index: stub("index", exportNames, 1000) };
  const esm = { bundle: true, format: "esm", platform: "node", target: "node20", logLevel: "warning" } as const;
  await build({ ...esm, entryPoints: [LOADER], outfile: join(outdir, "cached-script.js") });
  for (const [name, contents] of Object.entries(stubs)) {
    await build({ ...esm, stdin: { contents, resolveDir: root, sourcefile: `${name}.js`, loader: "js" }, external: ["./cached-script.js"], outfile: join(outdir, `${name}.js`) });
  }
  await bundleTestHelpers(outdir);
  // A build without caches still works (the first start writes them): say so, do not fail.
  if (options.warm) await warmCaches(outdir).catch((e: Error) => console.warn(`bundle: no code cache made at build time (${e.message}); the first start will make it`));
}

/**
 * The test-runner helpers (emulator/testing/): vitest.js (ES module; vitest loads a global setup
 * with import) and the setup file it adds to the project, vitest-file.js; jest.cjs (CommonJS: jest requires global setups, and a require of an ES
 * module's default export would give jest the namespace, not the function), plus the two
 * one-line modules jest's config names, whose module.exports is the function itself. Each
 * imports the emulator on first use from the package entry beside it (`../index.js` in the
 * sources is `./index.js` here): a few kilobytes each, one copy of the emulator.
 */
async function bundleTestHelpers(outdir: string): Promise<void> {
  const packageEntry: Plugin = {
    name: "package-entry",
    setup(b) {
      b.onResolve({ filter: /^\.\.\/index\.js$/ }, (args) => (/[\\/]emulator[\\/]testing[\\/]/.test(args.importer) ? { path: "./index.js", external: true } : undefined));
    },
  };
  const common: BuildOptions = { bundle: true, platform: "node", target: "node20", logLevel: "warning", plugins: [packageEntry] };
  await build({ ...common, format: "esm", entryPoints: [`${root}emulator/testing/vitest.ts`], outfile: join(outdir, "vitest.js") });
  // The setup file vitest.js adds to the project: it runs in the test workers, beside the project's own vitest.
  await build({ ...common, format: "esm", entryPoints: [`${root}emulator/testing/vitest-file.ts`], outfile: join(outdir, "vitest-file.js"), external: ["vitest"] });
  await build({ ...common, format: "cjs", entryPoints: [`${root}emulator/testing/jest.ts`], outfile: join(outdir, "jest.cjs") });
  for (const [file, name] of [
    ["jest-global-setup.cjs", "globalSetup"],
    ["jest-global-teardown.cjs", "globalTeardown"],
  ]) {
    writeFileSync(join(outdir, file!), `"use strict";\n// jest's ${name} option (package.json exports it as turnkey-emulator/jest/...).\nmodule.exports = require("./jest.cjs").${name};\n`);
  }
}

/** One start of the CLI and one startEmulator() through the package entry, each until its code cache is written. */
async function warmCaches(outdir: string): Promise<void> {
  const cacheDir = cacheDirsFor(join(outdir, "cli.cjs"))[0]!;
  const written = (name: string) => existsSync(cacheDir) && readdirSync(cacheDir).some((f) => f.startsWith(`${name}.cjs-`) && f.endsWith(".bin"));
  const runUntil = (args: string[], name: string) =>
    new Promise<void>((resolve, reject) => {
      const child = spawn(process.execPath, args, { cwd: outdir, stdio: ["ignore", "ignore", "inherit"] });
      const started = Date.now();
      const poll = setInterval(() => {
        if (!written(name) && Date.now() - started < 30_000) return;
        clearInterval(poll);
        child.kill("SIGTERM");
        if (written(name)) resolve();
        else reject(new Error(`no code cache for ${name}.cjs after 30 s`));
      }, 100);
      child.once("exit", (code) => {
        if (written(name)) return;
        clearInterval(poll);
        reject(new Error(`warming ${name}.cjs: the process exited (${code}) before writing its code cache`));
      });
    });
  await runUntil([join(outdir, "cli.js"), "start", "--port", "0"], "cli");
  const library = `const m = await import(${JSON.stringify(join(outdir, "index.js"))}); const e = await m.startEmulator({ port: 0 }); await (await fetch(e.url + "/emulator/v1/info")).json(); setTimeout(() => e.stop(), 5000);`;
  await runUntil(["--input-type=module", "-e", library], "index");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await bundle(`${root}dist/bundle`, { warm: true });
